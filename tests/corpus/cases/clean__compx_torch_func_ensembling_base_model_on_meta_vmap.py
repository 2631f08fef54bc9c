"""torch.func model ensembling: parameters of several models stacked on the compute device, the base model moved to `meta` on purpose.

Source: https://pytorch.org/tutorials/intermediate/ensembling.html
The tutorial stacks the weights of ten MLPs with `stack_module_state`, copies one model and moves
the copy to the `meta` device ("it's a stateless model with no parameters"), then calls
`vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)` where `fmodel` runs
`functional_call(base_model, (params, buffers), (x,))`. A model on `meta` beside real weights looks
like a device split but is by design: functional_call swaps in the stacked tensors. Look-alike that
runs. Here the CPU plays the tutorial's cuda device and `meta` stays `meta`.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import stack_module_state, functional_call, vmap

class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x):
        x = x.flatten(1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)

device = "cpu"                      # "cuda" in the tutorial
num_models = 10
data = torch.randn(100, 64, 1, 28, 28, device=device)
minibatch = data[0]
models = [SimpleMLP().to(device) for _ in range(num_models)]

params, buffers = stack_module_state(models)
base_model = copy.deepcopy(models[0])
base_model = base_model.to("meta")

def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))
'''
CELL = '''
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(predictions2_vmap.shape, predictions2_vmap.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
