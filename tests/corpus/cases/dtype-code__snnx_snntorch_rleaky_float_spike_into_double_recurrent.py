"""snnTorch RLeaky converted with `.double()`: the spike fed back into the recurrent Linear is float32.

Source: https://github.com/jeshraghian/snntorch/issues/421
The user built `rleaky = snn.RLeaky(beta=0.9, linear_features=4).double()` and called it on a
float64 input: "mat1 and mat2 must have the same dtype, but got Float and Double". The surrogate's
forward emits spikes with `(input_ > 0).float()`, so the spike that the recurrent `nn.Linear`
receives on the next step is float32 while its weight is float64; the fix (PR #432) emits
`(input_ > 0).to(input_.dtype)`.
Stand-in: RLeaky reduced to its recurrent linear, subtract reset and the ATan surrogate's forward;
two time steps in the user's loop so the float32 spike reaches `recurrent`.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

class ATan(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input_, alpha=2.0):
        ctx.save_for_backward(input_)
        ctx.alpha = alpha
        out = (input_ > 0).float()
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (input_,) = ctx.saved_tensors
        grad = ctx.alpha / 2 / (1 + (torch.pi / 2 * ctx.alpha * input_) ** 2) * grad_output
        return grad, None

class RLeaky(nn.Module):
    def __init__(self, beta, linear_features, threshold=1.0):
        super().__init__()
        self.register_buffer("beta", torch.as_tensor(beta))
        self.register_buffer("threshold", torch.as_tensor(threshold))
        self.recurrent = nn.Linear(linear_features, linear_features)
        self.spike_grad = ATan.apply

    def init_rleaky(self):
        return torch.zeros(0), torch.zeros(0)

    def forward(self, input_, spk=None, mem=None):
        if spk is None or spk.shape != input_.shape:
            spk = torch.zeros_like(input_)
            mem = torch.zeros_like(input_)
        reset = (mem - self.threshold > 0).to(mem.dtype)
        mem = self.beta * mem + input_ + self.recurrent(spk) - reset * self.threshold
        spk = self.spike_grad(mem - self.threshold)
        return spk, mem

rleaky = RLeaky(beta=0.9, linear_features=4).double()
x = torch.randn(5, 2, 4, dtype=torch.float64)
'''
CELL = '''
spk, mem = None, None
for step in range(x.size(0)):
    spk, mem = rleaky(x[step], spk, mem)
print(spk.dtype, mem.dtype)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["rleaky"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("out = (input_ > 0).float()", "out = (input_ > 0).to(input_.dtype)")
CLEAN = False
