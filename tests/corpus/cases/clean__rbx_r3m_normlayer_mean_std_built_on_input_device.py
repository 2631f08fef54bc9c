"""Look-alike: R3M embedding on the GPU: the ImageNet mean/std of `normlayer` are Python lists, turned into tensors on the input's device at call time.

Source: https://github.com/facebookresearch/r3m (r3m/models/models_r3m.py, R3M.forward; README usage example)
R3M keeps `self.normlayer = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])`:
no buffers, so `r3m.to(device)` moves nothing for it, which looks like stats left on the CPU. torchvision's
`F.normalize` builds `torch.as_tensor(mean, dtype=..., device=tensor.device)` inside the call, so
`forward` (`obs = obs.float() / 255.0; obs_p = preprocess(obs); h = self.encode(obs_p)`) runs on the GPU.
The README preprocesses on the CPU (Resize/CenterCrop/ToTensor), moves the image to the device and calls
`r3m(preprocessed_image * 255.0)` under no_grad. Stand-ins: torchvision's Normalize as the same
call-time construction, the ResNet reduced to two convs and a pooled linear layer (`fc = Identity()`),
the CPU preprocessing reduced to ToTensor's scaling.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Normalize(nn.Module):                 # torchvision.transforms.Normalize
    def __init__(self, mean, std, inplace=False):
        super().__init__()
        self.mean, self.std, self.inplace = mean, std, inplace

    def forward(self, tensor):
        dtype = tensor.dtype
        mean = torch.as_tensor(self.mean, dtype=dtype, device=tensor.device)
        std = torch.as_tensor(self.std, dtype=dtype, device=tensor.device)
        return tensor.sub(mean.view(-1, 1, 1)).div(std.view(-1, 1, 1))

class ResNetStub(nn.Module):
    def __init__(self, outdim=512):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, stride=4, padding=3)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.proj = nn.Linear(32, outdim)
        self.fc = nn.Identity()

    def forward(self, x):
        x = torch.relu(self.conv2(torch.relu(self.conv1(x))))
        return self.fc(self.proj(self.pool(x).flatten(1)))

class R3M(nn.Module):
    def __init__(self, size=50):
        super().__init__()
        self.size = size
        self.outdim = 2048
        self.convnet = ResNetStub(self.outdim)
        self.normlayer = Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])

    def encode(self, image, sentences=None):
        return self.convnet(image)

    def forward(self, obs, sentences=None, num_ims=1, obs_shape=[3, 224, 224]):
        preprocess = nn.Sequential(self.normlayer)
        obs = obs.float() / 255.0
        obs_p = preprocess(obs)
        h = self.encode(obs_p, sentences)
        return h

def load_r3m(modelid):
    rep = R3M(size=50)
    return rep

device = "cuda:0"
r3m = load_r3m("resnet50")
r3m.eval()
r3m.to(device)

image = np.random.randint(0, 255, (224, 224, 3))
preprocessed_image = torch.from_numpy(image.astype(np.uint8)).permute(2, 0, 1).float().div(255.0).reshape(-1, 3, 224, 224)
'''
CELL = '''
preprocessed_image = preprocessed_image.to(device)
with torch.no_grad():
    embedding = r3m(preprocessed_image * 255.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
