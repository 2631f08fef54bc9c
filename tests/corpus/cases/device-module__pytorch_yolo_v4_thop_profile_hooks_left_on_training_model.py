"""Pytorch_YOLO-v4: the model summary profiled the network with thop, whose forward hooks stay on it and add CPU tensors to buffers that moved to the GPU.

Source: https://github.com/DataXujing/Pytorch_YOLO-v4/issues/3
"I follow the instruction but got Expected all tensors to be on the same device": training failed at
`pred = model(imgs)`, inside a forward hook, `thop/vision/basic_hooks.py` `count_convNd`:
`m.total_ops += torch.DoubleTensor([int(total_ops)])` - "cuda:0 and cpu". So thop's counting hooks
were still attached to the training model: `thop.profile(model, ...)` (here for the FLOPs line of the
model summary, run on the model itself) registers `total_ops`/`total_params` buffers and a counting
forward hook on every leaf module, and the hooks stayed on it. `model.to(device)` then moves the buffers, and every training
forward adds a CPU DoubleTensor to a GPU buffer. Stand-in: thop's `profile`/`count_convNd`, a small
Darknet-style model and `model_info`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

# --- thop (profile / basic_hooks), reduced
def count_convNd(m, x, y):
    x = x[0]
    kernel_ops = m.weight.size()[2:].numel()
    bias_ops = 1 if m.bias is not None else 0
    total_ops = y.nelement() * (m.in_channels // m.groups * kernel_ops + bias_ops)
    m.total_ops += torch.DoubleTensor([int(total_ops)])

def profile(model, inputs, custom_ops=None, verbose=True):
    def add_hooks(m):
        if len(list(m.children())) > 0:
            return
        m.register_buffer('total_ops', torch.zeros(1, dtype=torch.float64))
        m.register_buffer('total_params', torch.zeros(1, dtype=torch.float64))
        for p in m.parameters():
            m.total_params += torch.DoubleTensor([p.numel()])
        if isinstance(m, nn.Conv2d):
            m.register_forward_hook(count_convNd)
    training = model.training
    model.eval()
    model.apply(add_hooks)
    with torch.no_grad():
        model(*inputs)
    total_ops, total_params = 0, 0
    for m in model.modules():
        if len(list(m.children())) > 0:
            continue
        total_ops += m.total_ops
        total_params += m.total_params
    model.train(training)
    return total_ops, total_params

# --- models.py
class Darknet(nn.Module):
    def __init__(self, nc=4):
        super().__init__()
        self.module_list = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.LeakyReLU(0.1)),
            nn.Sequential(nn.Conv2d(16, 32, 3, 2, 1, bias=False), nn.LeakyReLU(0.1)),
            nn.Conv2d(32, 3 * (nc + 5), 1),
        ])

    def forward(self, x):
        return self.forward_once(x)

    def forward_once(self, x):
        for module in self.module_list:
            x = module(x)
        return x

    def info(self, verbose=False):
        model_info(self, verbose)

def model_info(model, verbose=False):
    n_p = sum(x.numel() for x in model.parameters())
    flops = profile(model, inputs=(torch.zeros(1, 3, 64, 64),), verbose=False)[0] / 1e9 * 2
    # the summary also prints '%.1f GFLOPS' % flops
    print('Model Summary: %g layers, %g parameters' % (len(list(model.parameters())), n_p))

device = torch.device('cuda:0')
model = Darknet()
model.info()                       # Model Summary ... GFLOPS (runs thop.profile on the model itself)
model = model.to(device)
imgs = torch.rand(2, 3, 64, 64).to(device)
'''
CELL = '''
model.train()
pred = model(imgs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
for m in model.modules():
    m._forward_hooks.clear()
'''
REFERENCE_EDIT = None
CLEAN = False
