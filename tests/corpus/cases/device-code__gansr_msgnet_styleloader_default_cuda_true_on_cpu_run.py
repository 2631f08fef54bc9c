"""PyTorch-Multi-Style-Transfer with `--cuda 0`: `StyleLoader` defaults to `cuda=True` and sends every style image to the GPU.

Source: https://github.com/zhanghang1989/PyTorch-Multi-Style-Transfer/issues/11
"Doesn't work without CUDA": training with `--cuda 0` kept the MSG-Net on the CPU but failed with
"Input type (CUDAFloatTensor) and weight type (CPUFloatTensor) should be the same" in the first layers
of the net (`model1`). `main.py` builds `utils.StyleLoader(args.style_folder, args.style_size)` and
`StyleLoader.__init__(self, style_folder, style_size, cuda=True)` calls `style.cuda()` in `get`, so the
`--cuda` flag never reaches it; passing `cuda=args.cuda` keeps the styles on the CPU. The MSG-Net is
reduced to `model1` + Gram matrix + `setTarget`; its instance norm is made affine so the simulated
mismatch surfaces in `model1` (simulated convs do not check devices); image loading is a stand-in.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable
from types import SimpleNamespace

def tensor_load_rgbimage(filename, size=None):
    return torch.rand(3, size, size) * 255        # PIL load + resize in the repo

def preprocess_batch(batch):
    batch = batch.transpose(0, 1)
    (r, g, b) = torch.chunk(batch, 3)
    batch = torch.cat((b, g, r))
    batch = batch.transpose(0, 1)
    return batch

class StyleLoader():
    def __init__(self, style_folder, style_size, cuda=True):
        self.folder = style_folder
        self.style_size = style_size
        self.files = ["candy.jpg", "mosaic.jpg"]     # os.listdir(style_folder)
        self.cuda = cuda

    def get(self, i):
        idx = i%len(self.files)
        filepath = self.folder + "/" + self.files[idx]
        style = tensor_load_rgbimage(filepath, self.style_size)
        style = style.unsqueeze(0)
        style = preprocess_batch(style)
        if self.cuda:
            style = style.to("cuda:0")            # style.cuda()
        style_v = Variable(style, requires_grad=False)
        return style_v

class GramMatrix(nn.Module):
    def forward(self, y):
        (b, ch, h, w) = y.size()
        features = y.view(b, ch, w * h)
        features_t = features.transpose(1, 2)
        gram = features.bmm(features_t) / (ch * h * w)
        return gram

class Net(nn.Module):
    def __init__(self, input_nc=3, ngf=8):
        super(Net, self).__init__()
        self.gram = GramMatrix()
        self.model1 = nn.Sequential(nn.ReflectionPad2d(3), nn.Conv2d(input_nc, ngf, kernel_size=7, stride=1),
                                    nn.InstanceNorm2d(ngf, affine=True), nn.ReLU(inplace=True),
                                    nn.Conv2d(ngf, ngf, kernel_size=3, stride=2, padding=1))
        self.G = None

    def setTarget(self, Xs):
        F = self.model1(Xs)
        self.G = self.gram(F)

args = SimpleNamespace(cuda=0, style_folder="images/9styles", style_size=32, ngf=8)
style_model = Net(ngf=args.ngf)
if args.cuda:
    style_model.to("cuda:0")
style_loader = StyleLoader(args.style_folder, args.style_size)
batch_id = 0
'''
CELL = '''
style_v = style_loader.get(batch_id)
style_model.setTarget(style_v)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["style_loader"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("style_loader = StyleLoader(args.style_folder, args.style_size)",
                  "style_loader = StyleLoader(args.style_folder, args.style_size, cuda=args.cuda)")
CLEAN = False
