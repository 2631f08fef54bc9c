"""CrypTen's AutogradSum.backward multiplies a CUDA gradient by `torch.ones(input_size)` made on the CPU.

Source: https://github.com/facebookresearch/CrypTen/issues/426
Training on the GPU with CrypTen's autograd fails in the backward pass with "Expected all tensors to
be on the same device ... cuda:0 and cpu". The maintainer traced it to `gradients.py`:
`return grad_output.mul(torch.ones(input_size))` in AutogradSum.backward, and proposed
`ones = torch.ones(input_size, device=grad_output.device)`. Stand-in: CrypTen's AutogradContext and
AutogradSum/AutogradMul as in `gradients.py`, run by a minimal tape over plain (unencrypted)
tensors, as CrypTen's own autograd does (no torch.autograd involved).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class AutogradContext:
    def __init__(self):
        self.saved_tensors = []

    def save_for_backward(self, value):
        self.saved_tensors.append(value)

    def save_multiple_for_backward(self, values):
        for value in values:
            self.save_for_backward(value)

class AutogradMul:
    @staticmethod
    def forward(ctx, input, other):
        ctx.save_multiple_for_backward((input, other))
        return input.mul(other)

    @staticmethod
    def backward(ctx, grad_output):
        input, other = ctx.saved_tensors
        return grad_output.mul(other), grad_output.mul(input)

class AutogradSum:
    @staticmethod
    def forward(ctx, input, dim=None, keepdim=False):
        ctx.save_multiple_for_backward((input.size(), dim, keepdim))
        return input.sum(dim=dim, keepdim=keepdim) if dim is not None else input.sum()

    @staticmethod
    def backward(ctx, grad_output):
        input_size, dim, keepdim = ctx.saved_tensors
        if not keepdim and dim is not None:
            grad_output = grad_output.unsqueeze(dim)
        return grad_output.mul(torch.ones(input_size))

class CrypTensor:
    """A plaintext stand-in keeping CrypTen's tape: grad_fn, ctx, children."""
    def __init__(self, tensor, requires_grad=False):
        self._tensor, self.requires_grad = tensor, requires_grad
        self.grad_fn, self.ctx, self.children, self.grad = None, None, [], None

    def _record(self, fn, children, *args, **kwargs):
        ctx = AutogradContext()
        out = CrypTensor(fn.forward(ctx, *args, **kwargs))
        out.grad_fn, out.ctx, out.children = fn, ctx, children
        return out

    def mul(self, other):
        return self._record(AutogradMul, [self, other], self._tensor, other._tensor)

    def sum(self, dim=None, keepdim=False):
        return self._record(AutogradSum, [self], self._tensor, dim=dim, keepdim=keepdim)

    def backward(self, grad_output=None):
        if grad_output is None:
            grad_output = torch.ones_like(self._tensor)
        if self.grad_fn is None:
            if self.requires_grad:
                self.grad = grad_output if self.grad is None else self.grad + grad_output
            return
        grads = self.grad_fn.backward(self.ctx, grad_output)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for child, grad in zip(self.children, grads):
            child.backward(grad)

device = "cuda:0"
x_enc = CrypTensor(torch.randn(16, 8, device=device))
w_enc = CrypTensor(torch.randn(16, 8, device=device), requires_grad=True)
'''
CELL = '''
loss = x_enc.mul(w_enc).sum(dim=1).sum()
loss.backward()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["AutogradSum"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "return grad_output.mul(torch.ones(input_size))",
    "return grad_output.mul(torch.ones(input_size, device=grad_output.device))",
)
CLEAN = False
