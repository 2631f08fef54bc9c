"""vllm-omni's shared NPU layers: CPU tensors take the native path, NPU tensors the fused one, in the same process.

Source: https://github.com/vllm-project/vllm-omni/pull/6792
"Keep the shared diffusion NPU operator dispatch correct when a CPU tensor is used in an
NPU-enabled process": `RMSNorm.forward_npu` and `SiluAndMul.forward_npu` fall back to the native
implementation for CPU tensors, so a CPU copy of a block (used by the CPU tests) and the NPU copy run
side by side. Look-alike: two copies of the same layers on two devices, each called with its own
device's input, results compared on the CPU. Stand-in: RMSNorm and SiluAndMul with the dispatch;
the fused ops are written out; cuda:0 stands in for npu:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn

class RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.eps = eps

    def forward_native(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return x * torch.rsqrt(var + self.eps) * self.weight

    def forward(self, x):
        if x.device.type == "cpu":
            return self.forward_native(x)
        return self.forward_native(x)            # torch_npu.npu_rms_norm(x, self.weight, self.eps)[0]

class SiluAndMul(nn.Module):
    def forward(self, x):
        d = x.shape[-1] // 2
        return nn.functional.silu(x[..., :d]) * x[..., d:]

class MLPBlock(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.norm = RMSNorm(hidden)
        self.gate_up = nn.Linear(hidden, 4 * hidden)
        self.act = SiluAndMul()
        self.down = nn.Linear(2 * hidden, hidden)

    def forward(self, x):
        return x + self.down(self.act(self.gate_up(self.norm(x))))

block_cpu = MLPBlock()
block_npu = copy.deepcopy(block_cpu).to("cuda:0")      # .to("npu")
x_cpu = torch.randn(2, 8, 32)
x_npu = x_cpu.to("cuda:0")
'''
CELL = '''
ref = block_cpu(x_cpu)
out = block_npu(x_npu)
diff = (out.cpu() - ref).abs()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
