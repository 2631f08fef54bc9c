"""Look-alike: a model that keeps an index buffer and a `scatter_add_` on the CPU on purpose and does its matmul on CUDA; the CPU result is moved to the GPU before it meets CUDA tensors.

Source: https://github.com/pytorch/pytorch/issues/166841
The report's `MyModel` registers CPU buffers (`index`, `src`), runs `scatter_add_` on CPU tensors and
a matmul on CUDA tensors in the same `forward`; the model runs correctly in eager mode and through
`torch.export` -- only `aoti_compile_and_package` generated the wrong (CUDA) kernel for the CPU
scatter. Mixing devices this way is valid as long as the CPU result is copied to the GPU before it is
combined with CUDA tensors.
Stand-in: the model run eagerly (the cell is what export traces); the weight lives on cuda:0 while the
scatter buffers stay on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class MyModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("index", torch.tensor([1, 4, 1, 0, 2]))
        self.register_buffer("src", torch.ones(5))
        self.weight = torch.nn.Parameter(torch.randn(8, 8))

    def forward(self, x):
        counts = torch.zeros(8).scatter_add_(0, self.index, self.src)     # on the CPU
        y = x @ self.weight                                                # on CUDA
        return y * counts.to(y.device)

model = MyModel()
model.weight = torch.nn.Parameter(torch.randn(8, 8, device="cuda:0"))     # weight on the GPU, buffers stay on the CPU
x = torch.randn(4, 8, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    out = model(x)
print(out.device, model.index.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
