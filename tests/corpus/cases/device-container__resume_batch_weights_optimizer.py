"""Resumed training: the same cell trips on the labels, the class weights and the optimizer state.

Source: https://github.com/rasbt/LLMs-from-scratch/issues/232
Resuming from a checkpoint, the optimizer state was loaded while the model was still on the CPU
and the model moved afterwards; the notebook's batch dict got only its inputs moved and the class
weights (from class counts) were never moved. Fixing one at a time, the user met the next one
(the causes listed together in https://dev-solve.com/posts/3f078da). A right diagnosis covers all
three at once.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
# stand-in for opt.load_state_dict(checkpoint["optimizer"]) while the model is on the CPU
for p in model.parameters():
    p.grad = torch.zeros_like(p)
opt.step()
model.to(device)

class_weights = torch.tensor([1.0, 2.0, 2.0, 4.0])
batch = {"x": torch.randn(8, 20).to(device), "y": torch.randint(0, 4, (8,))}
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
for p in model.parameters():
    p.grad = torch.zeros_like(p)
'''
CELL = '''
logits = model(batch["x"])
loss = F.cross_entropy(logits, batch["y"], weight=class_weights)
opt.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch['y']", "class_weights", "opt"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["y"] = batch["y"].to(device)
class_weights = class_weights.to(device)
for state in opt.state.values():
    for k, v in state.items():
        if torch.is_tensor(v) and k != "step":
            state[k] = v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
