"""fasttransform tutorial pipeline: `Normalize.from_stats(*imagenet_stats)` puts mean/std on the GPU, the single image stays on the CPU.

Source: https://github.com/AnswerDotAI/fasttransform/issues/8
Following the fasttransform blog post, the user builds `Pipeline([PILImage.create, Resize(256), Resize(224,
method="crop"), ToTensor(), IntToFloatTensor(), Normalize.from_stats(*imagenet_stats)])` and calls it on
one image path: "Expected all tensors to be on the same device ... cuda:0 and cpu!". fastai's
`Normalize.from_stats(mean, std, dim=1, ndim=4, cuda=True)` broadcasts the stats onto the default CUDA
device, while the decoded image tensor is on the CPU (a DataLoader would move batches first); passing
`cuda=False` keeps the stats with the image.
Stand-in: a Pipeline of the tensor steps and fastai's Normalize/broadcast_vec; a random uint8 image
replaces PILImage.create/Resize.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

imagenet_stats = ([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])

def default_device():
    return torch.device("cuda:0")

def broadcast_vec(dim, ndim, *t, cuda=True):
    v = [1] * ndim
    v[dim] = -1
    f = (lambda x: x.to(default_device())) if cuda else (lambda x: x)
    return [f(torch.tensor(o).view(*v)) for o in t]

class Normalize:
    def __init__(self, mean=None, std=None, axes=(0, 2, 3)):
        self.mean, self.std, self.axes = mean, std, axes

    @classmethod
    def from_stats(cls, mean, std, dim=1, ndim=4, cuda=True):
        return cls(*broadcast_vec(dim, ndim, mean, std, cuda=cuda))

    def __call__(self, x):
        return (x - self.mean) / self.std

class ToTensor:
    def __call__(self, img):
        return img.permute(2, 0, 1)[None]

class IntToFloatTensor:
    def __call__(self, x):
        return x.float() / 255.

class Pipeline:
    def __init__(self, fs):
        self.fs = fs

    def __call__(self, o):
        for f in self.fs:
            o = f(o)
        return o

transforms_ft = Pipeline([
    ToTensor(),
    IntToFloatTensor(),
    Normalize.from_stats(*imagenet_stats),
])
img = torch.randint(0, 256, (224, 224, 3), dtype=torch.uint8)   # PILImage.create + Resize, on the CPU
'''
CELL = '''
img_transformed = transforms_ft(img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["transforms_ft"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("Normalize.from_stats(*imagenet_stats),", "Normalize.from_stats(*imagenet_stats, cuda=False),")
CLEAN = False
