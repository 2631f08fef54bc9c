"""`pyro.param("alpha_loc", torch.rand(3).cuda())` returns a CPU tensor: a stale value from the param store.

Source: https://github.com/pyro-ppl/pyro/issues/2935
"pyro.param cannot be set to CPU correctly": even with a cuda initial value, the returned param
is on the CPU. `pyro.param` only uses the initial value when the name is not yet in the global
param store; an earlier (CPU) run had left "alpha_loc" there. The maintainer's answer:
call `pyro.clear_param_store()` before inference, which fixed it.
Stand-in: Pyro's global ParamStoreDict and `pyro.param` / `pyro.clear_param_store`.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from types import SimpleNamespace

class ParamStoreDict(dict):
    def setdefault_param(self, name, init_tensor):
        if name not in self:
            self[name] = init_tensor
        return self[name]

param_store = ParamStoreDict()
pyro = SimpleNamespace(
    param=lambda name, init_tensor: param_store.setdefault_param(name, init_tensor),
    clear_param_store=param_store.clear,
    get_param_store=lambda: param_store,
)

# an earlier run of the notebook, on the CPU
alpha_loc = pyro.param("alpha_loc", torch.rand(3))

data = torch.randn(100, 3).to("cuda:0")
'''
CELL = '''
alpha_loc = pyro.param("alpha_loc", torch.rand(3).to("cuda:0"))
resid = data - alpha_loc.unsqueeze(0) * torch.ones(100, 3, device="cuda:0")
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices")
CULPRITS = ["param_store['alpha_loc']"]
FIX = "namespace"
REFERENCE_FIX = '''
pyro.clear_param_store()
'''
REFERENCE_EDIT = None
CLEAN = False
