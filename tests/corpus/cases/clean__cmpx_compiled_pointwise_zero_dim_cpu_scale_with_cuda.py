"""Look-alike: a compiled pointwise function mixes a 0-dim CPU tensor (a scale) with CUDA tensors, which PyTorch allows for scalars.

Source: https://github.com/pytorch/pytorch/pull/87273
"fix 0d cpu tensor handling when it's the first arg": Inductor now treats a 0-dim CPU tensor next to
CUDA tensors the way eager does (the CPU scalar is promoted, the result is on CUDA: "cases of true
device mismatch have been already weeded out during tracing, and what we have is 0d cpu tensor +
cuda tensor interop"). The pattern is common in quantization code: a per-tensor `scale` kept as a
0-dim CPU tensor while the activations live on the GPU.
Stand-in: the compiled function is the plain function (eager semantics); a fake-quant step with a
0-dim CPU `scale` and a CUDA activation.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

def fake_quant(scale, x):
    return torch.clamp(torch.round(x / scale), -128, 127) * scale

fn = fake_quant                      # torch.compile(fake_quant)
scale = torch.tensor(0.05)           # 0-dim, CPU
x = torch.randn(16, 32, device="cuda:0")
'''
CELL = '''
y = fn(scale, x)
print(y.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
