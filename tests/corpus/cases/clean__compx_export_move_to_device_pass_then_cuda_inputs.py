"""torch.export: a program exported on the CPU and moved with `move_to_device_pass` before running on cuda inputs.

Source: https://github.com/pytorch/pytorch/pull/133660
"Implemented `move_to_device_pass()` ... The user has to explicitly call this method to move the
exported program from one torch.device to another one": the pass rewrites the `device=` kwargs
burnt into graph nodes (an `arange` here) and moves the state dict, so `ep.module()` then runs on
cuda inputs. A CPU-exported graph with device-bearing nodes, run on the GPU, correctly. Look-alike
that runs. Stand-ins: a tiny ExportedProgram whose `module()` builds a GraphModule-like module from
node kwargs, and the pass.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
ep = move_to_device_pass(ep, "cuda:0")
'''
CELL = '''
gm = ep.module()
inputs = tuple(i.to("cuda:0") for i in inputs)
out = gm(*inputs)
print(out.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
