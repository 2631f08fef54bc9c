"""PyTorch recipe "compiling the optimizer with an LR scheduler": Adam built with `lr=torch.tensor(0.01)` for a model on the GPU.

Source: https://pytorch.org/tutorials/recipes/compiling_optimizer_lr_scheduler.html
The recipe wraps the learning rate in a tensor (`torch.optim.Adam(model.parameters(),
lr=torch.tensor(0.01))`) so that `torch.compile`d `opt.step()` does not recompile when a scheduler
changes it; the model and its gradients are on cuda, the lr tensor stays a CPU scalar — allowed.
Look-alike that runs (the compiled step is the eager step here). `meta` plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch

torch.__future__.set_swap_module_params_on_conversion(True)
model = torch.nn.Sequential(*[torch.nn.Linear(1024, 1024, False) for _ in range(10)])
model = model.to("meta")                      # .cuda() in the recipe
input = torch.rand(1024, device="meta")
output = model(input)
output.sum().backward()

opt = torch.optim.Adam(model.parameters(), lr=torch.tensor(0.01))
sched = torch.optim.lr_scheduler.LinearLR(opt, total_iters=5)

def fn():                                     # @torch.compile(fullgraph=False) in the recipe
    opt.step()
    sched.step()
'''
CELL = '''
for i in range(5):
    fn()
print(opt.param_groups[0]["lr"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
