"""A tensor kept as a plain attribute of an nn.Module stays on the CPU after `module.cuda()`.

Source: https://stackoverflow.com/questions/60908827/why-pytorch-nn-module-cuda-not-moving-module-tensor-but-only-parameters-and-bu
"nn.Module.cuda() moves all model parameters and buffers to the GPU. But why not the model member
tensor?": the asker's `ToyModule` held `self.expected_moved_cuda_tensor = torch.tensor([0, 2, 3])`
next to a `Linear` layer; after `toy_module.cuda()` the layer was on `cuda:0` and the member tensor
still on the CPU. Answer: register it with `register_buffer` (or as a Parameter). Stand-in: the
member tensor is used in `forward` to pick the input features the layer reads.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

class ToyModule(torch.nn.Module):
    def __init__(self) -> None:
        super(ToyModule, self).__init__()
        self.layer = torch.nn.Linear(3, 2)
        self.expected_moved_cuda_tensor = torch.tensor([0, 2, 3])

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        picked = input.index_select(1, self.expected_moved_cuda_tensor)
        return self.layer(picked)

toy_module = ToyModule()
toy_module = toy_module.to("cuda:0")            # toy_module.cuda()
batch = torch.randn(8, 5).to("cuda:0")
'''
CELL = '''
out = toy_module(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["toy_module.expected_moved_cuda_tensor"]
FIX = "namespace"
REFERENCE_FIX = '''
toy_module.expected_moved_cuda_tensor = toy_module.expected_moved_cuda_tensor.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
