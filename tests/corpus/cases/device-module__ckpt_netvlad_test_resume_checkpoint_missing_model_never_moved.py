"""pytorch-NetVlad: testing a trained model with --resume; when the requested checkpoint file is not there, the model is never moved to the GPU while the test batches are.

Source: https://github.com/Nanne/pytorch-NetVlad/issues/62
"When I run your code to test after trained, there is always a error": `image_encoding =
model.encoder(input)` in `test()` raised "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same"; the maintainer: "Somehow the data that you are loading is on
the GPU, but the model (and thus its weights) are on CPU." In main.py the only `.to(device)` for a
resumed run sits inside `if isfile(resume_ckpt):` (after `load_state_dict`), and the fallback
`if not opt.resume: model = model.to(device)` skips resumed runs - so with `--ckpt best` pointing at a
missing `model_best.pth.tar` it only prints "=> no checkpoint found" and tests a CPU model.
Stand-in: a small VGG-like encoder + NetVLAD pool; the file check is a set of saved paths.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from os.path import join

class NetVLAD(nn.Module):
    def __init__(self, num_clusters=8, dim=32):
        super().__init__()
        self.conv = nn.Conv2d(dim, num_clusters, kernel_size=1, bias=True)
        self.centroids = nn.Parameter(torch.rand(num_clusters, dim))

    def forward(self, x):
        N, C = x.shape[:2]
        soft_assign = F.softmax(self.conv(x).view(N, -1, x.shape[2] * x.shape[3]), dim=1)
        x_flatten = x.view(N, C, -1)
        vlad = torch.einsum("nkl,ncl->nkc", soft_assign, x_flatten) - soft_assign.sum(-1)[..., None] * self.centroids
        return F.normalize(vlad.flatten(1), p=2, dim=1)

class Opt:
    mode = "test"
    resume = "runs/Nov25_vgg16_netvlad"
    ckpt = "best"
    cacheBatchSize = 4

opt = Opt()
device = torch.device("cuda:0")
_saved_files = {join(opt.resume, "checkpoints", "checkpoint.pth.tar")}    # model_best.pth.tar was never written

model = nn.Module()
model.add_module("encoder", nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU()))
model.add_module("pool", NetVLAD(num_clusters=8, dim=32))

if not opt.resume:
    model = model.to(device)

if opt.resume:
    if opt.ckpt.lower() == "latest":
        resume_ckpt = join(opt.resume, "checkpoints", "checkpoint.pth.tar")
    elif opt.ckpt.lower() == "best":
        resume_ckpt = join(opt.resume, "checkpoints", "model_best.pth.tar")
    if resume_ckpt in _saved_files:                 # isfile(resume_ckpt)
        checkpoint = {"epoch": 5, "best_score": 0.81, "state_dict": model.state_dict()}
        opt.start_epoch = checkpoint["epoch"]
        model.load_state_dict(checkpoint["state_dict"])
        model = model.to(device)
    else:
        print("=> no checkpoint found at '{}'".format(resume_ckpt))

model.eval()
input = torch.randn(opt.cacheBatchSize, 3, 32, 32).to(device)   # from the whole_test_set loader
'''
CELL = '''
with torch.no_grad():
    image_encoding = model.encoder(input)
    vlad_encoding = model.pool(image_encoding)
'''
EXPECT_ERROR = ("should be the same", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
