"""MerLin QuantumLayer(device='cuda') with an ansatz: the layer's output always comes back on the CPU and meets the next cuda Linear.

Source: https://github.com/merlinquantum/merlin/issues/22
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument mat1 in method wrapper_CUDA_addmm)": the user's hybrid model
feeds a cuda input through `ml.QuantumLayer(..., device='cuda')` built from an ansatz (photonic
backend) and then an `nn.Linear`; "even though the input of the QuantumLayer is on cuda, the
output will always be on CPU". The layer's output distribution is computed from a unitary built
on the CPU, ignoring the `device` argument.
Stand-in: QuantumLayer reduced to an input phase encoding, a fixed interferometer unitary built
without a device, and a probability readout (real-valued); the user's Sequential head.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class QuantumLayer(nn.Module):
    def __init__(self, input_size, output_size, device=None):
        super().__init__()
        self.input_size, self.output_size, self.device = input_size, output_size, device
        self.theta = nn.Parameter(torch.rand(output_size))

    def _unitary(self):
        k = torch.arange(self.output_size, dtype=torch.float32)
        return torch.cos(torch.outer(k, k) / self.output_size)

    def forward(self, x):
        amp = torch.cos(x.sum(-1, keepdim=True).cpu() + self.theta.detach().cpu())
        probs = (amp @ self._unitary()) ** 2
        return probs / probs.sum(-1, keepdim=True)

device = torch.device("cuda:0")
model = nn.Sequential(
    QuantumLayer(input_size=4, output_size=6, device=device),
    nn.Linear(6, 2),
).to(device)
x = torch.rand(16, 4, device=device)
'''
CELL = '''
out = model(x)
print(out.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return probs / probs.sum(-1, keepdim=True)",
                  "return (probs / probs.sum(-1, keepdim=True)).to(x.device)")
CLEAN = False
