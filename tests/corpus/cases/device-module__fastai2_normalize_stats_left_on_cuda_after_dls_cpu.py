"""fastai2 `dls.cpu()`: the batches now come out on the CPU, the `Normalize` transform keeps its CUDA mean/std.

Source: https://github.com/fastai/fastai2/issues/158
`dls = dsets.dataloaders(bs=2, after_batch=[IntToFloatTensor(), Normalize.from_stats(*imagenet_stats)])`
then `dls.cpu(); dls.one_batch()` raised "expected device cpu but got device cuda:0". The reporter:
"normalize object stores mean and std while init. Perhaps the dls forgot to change them??" --
`dls.cpu()` only changed the loader's device. Stand-in: a minimal DataLoaders with an
`after_batch` list of transforms.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

imagenet_stats = ([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])

class IntToFloatTensor:
    def __call__(self, x):
        return x.float() / 255.0

class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    @classmethod
    def from_stats(cls, mean, std, dim=1, ndim=4, cuda=True):
        shape = [1] * ndim
        shape[dim] = -1
        dev = "cuda:0" if cuda else "cpu"
        return cls(torch.tensor(mean).view(*shape).to(dev), torch.tensor(std).view(*shape).to(dev))

    def __call__(self, x):
        return (x - self.mean) / self.std

class DataLoaders:
    def __init__(self, items, bs, after_batch, device="cuda:0"):
        self.items, self.bs, self.after_batch = items, bs, after_batch
        self.device = torch.device(device)

    def cpu(self):
        self.device = torch.device("cpu")
        return self

    def one_batch(self):
        xb = torch.stack(self.items[:self.bs]).to(self.device)
        for f in self.after_batch:
            xb = f(xb)
        return xb

items = [torch.randint(0, 255, (3, 16, 16)) for _ in range(8)]
dls = DataLoaders(items, bs=2, after_batch=[IntToFloatTensor(), Normalize.from_stats(*imagenet_stats)])
dls.cpu()
'''
CELL = '''
xb = dls.one_batch()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dls.after_batch[1]"]
FIX = "namespace"
REFERENCE_FIX = '''
norm = dls.after_batch[1]
norm.mean, norm.std = norm.mean.to("cpu"), norm.std.to("cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
