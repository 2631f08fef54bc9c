"""DSXplore: the `scc_cuda` extension raises "weights must be a CUDA tensor" in `test()`: the ResNet was never moved to the GPU.

Source: https://github.com/YukeWang96/DSXplore_IPDPS21/issues/1
Running `test()` in `models/resnet.py` failed in `scc_cuda.forward(input, weights, output, overlap)`
with "input must be a CUDA tensor", then "weights must be a CUDA tensor", though the user thought
everything was on the GPU. The maintainer fixed `test()` so both the network and the input are put
on the GPU ("both the model and input should be on GPU"). Stand-ins: the compiled CUDA extension's
argument checks (CHECK_CUDA) as a Python function, the SCC conv layer calling it from an
autograd.Function, a two-layer net.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class scc_cuda:                          # stand-in for the C++/CUDA extension module
    @staticmethod
    def forward(input, weights, output, overlap):
        for name, t in (("input", input), ("weights", weights), ("output", output)):
            if not t.is_cuda:
                raise RuntimeError(f"{name} must be a CUDA tensor")
        out = torch.nn.functional.conv2d(input, weights, padding=1)
        return [out]

class SCCFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weights, overlap):
        output = input.new_empty(0)
        return scc_cuda.forward(input, weights, output, overlap)[0]

class SCConv(nn.Module):
    def __init__(self, cin, cout, overlap=0.5):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(cout, cin, 3, 3) * 0.1)
        self.overlap = overlap

    def forward(self, x):
        return SCCFunction.apply(x, self.weights, self.overlap)

class ResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = SCConv(3, 16)
        self.conv2 = SCConv(16, 16)
        self.linear = nn.Linear(16, 10)

    def forward(self, x):
        out = torch.relu(self.conv1(x))
        out = torch.relu(self.conv2(out))
        return self.linear(out.mean(dim=(2, 3)))

net = ResNet()
x = torch.randn(2, 3, 32, 32).to("cuda:0")
'''
CELL = '''
y = net(x)
print(y.size())
'''
EXPECT_ERROR = "must be a CUDA tensor"
CULPRITS = ["net"]
FIX = "namespace"
REFERENCE_FIX = '''
net = net.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
