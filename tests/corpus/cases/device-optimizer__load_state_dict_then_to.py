"""Continued pretraining: AdamW state loaded from the checkpoint, then the model moved.

Source: https://github.com/rasbt/LLMs-from-scratch/issues/232
The checkpoint's model and optimizer states were loaded while the model was on the CPU, so
`load_state_dict` cast the AdamW state to the CPU; moving the model afterwards left the state
behind and the next `optimizer.step()` failed (the user wrote an `optimizer_to(optim, device)`).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class GPTModel(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, dim)
        self.trf = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.out_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        return self.out_head(self.trf(self.tok_emb(idx)))

# the checkpoint, as torch.load(..., map_location="cpu") returns it
_trained = GPTModel()
_trained_opt = torch.optim.AdamW(_trained.parameters(), lr=4e-4, weight_decay=0.1)
for _p in _trained.parameters():
    _p.grad = torch.ones_like(_p)
_trained_opt.step()
checkpoint = {"model_state_dict": _trained.state_dict(),
              "optimizer_state_dict": _trained_opt.state_dict()}

device = torch.device("cuda:0")
model = GPTModel()
model.load_state_dict(checkpoint["model_state_dict"])
optimizer = torch.optim.AdamW(model.parameters(), lr=4e-4, weight_decay=0.1)
optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
model.to(device)
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
for p in model.parameters():
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in optimizer.state.values():
    for k, v in state.items():
        if torch.is_tensor(v) and k != "step":
            state[k] = v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
