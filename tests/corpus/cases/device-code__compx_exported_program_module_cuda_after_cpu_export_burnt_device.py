"""`torch.export` on the CPU, then `ep.module().to("cuda")`: the exported graph keeps `device=cpu` in its factory calls.

Source: https://github.com/pytorch/pytorch/issues/121761
The user exported a model on CPU and moved the module returned by `ep.module()` to CUDA for
inference; `gm(*inputs)` failed inside the generated `forward` although the original model moved to
CUDA works. Export burns the trace-time device into nodes' `device=` kwargs (here an `arange` for
positions); `Module.to()` moves parameters/buffers, not those kwargs. The maintainers added
`torch.export.passes.move_to_device_pass(ep, "cuda")` (PR #133660) as the way to move an exported
program. Stand-ins: a tiny ExportedProgram whose `module()` builds a GraphModule-like module from
node kwargs, and `move_to_device_pass` rewriting them.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class GraphModule(nn.Module):            # what ep.module() returns: the graph as generated code
    def __init__(self, state_dict, node_kwargs):
        super().__init__()
        self.embed = nn.Embedding(100, 16)
        self.proj = nn.Linear(16, 16)
        self.pos = nn.Embedding(32, 16)
        self.load_state_dict(state_dict, assign=True)
        self._arange_kwargs = dict(node_kwargs["arange"])

    def forward(self, x):
        arange = torch.ops.aten.arange.start(0, x.shape[1], **self._arange_kwargs)
        h = self.embed(x) + self.pos.weight[:x.shape[1]] * 0 + torch.ops.aten.unsqueeze.default(arange, -1)
        return self.proj(h)

class ExportedProgram:
    def __init__(self, state_dict, node_kwargs):
        self.state_dict, self.node_kwargs = state_dict, node_kwargs

    def module(self):
        return GraphModule(self.state_dict, self.node_kwargs)

def move_to_device_pass(ep, location):   # torch.export.passes.move_to_device_pass
    kwargs = {k: dict(v, device=torch.device(location)) for k, v in ep.node_kwargs.items()}
    return ExportedProgram({k: v.to(location) for k, v in ep.state_dict.items()}, kwargs)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 16)
        self.proj = nn.Linear(16, 16)
        self.pos = nn.Embedding(32, 16)

model = Model()
inputs = (torch.randint(0, 100, (2, 8)),)
# ep = torch.export.export(model, inputs) on the CPU
ep = ExportedProgram(model.state_dict(), {"arange": {"dtype": torch.float32, "device": torch.device("cpu")}})
'''
CELL = '''
gm = ep.module().to("cuda:0")
inputs = tuple(i.to("cuda:0") for i in inputs)
out = gm(*inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ep"]
FIX = "namespace"
REFERENCE_FIX = '''
ep = move_to_device_pass(ep, "cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
