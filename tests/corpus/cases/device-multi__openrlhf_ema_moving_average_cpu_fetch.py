"""PPO with an EMA actor: moving_average() fetches the actor's weights to the CPU, the EMA copy is on the GPU.

Source: https://github.com/OpenRLHF/OpenRLHF/issues/245
With --enable_ema the EMA model is a deepcopy of the actor (already on cuda) and is prepared by
the strategy, so it stays on the GPU; `moving_average(actor, ema_model, beta, "cpu")` moves each
actor parameter to the CPU before mixing it with the EMA parameter, and the update raised
"found at least two devices, cuda:2 and cpu". The EMA model was meant to live on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
from torch import nn

class Actor(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        return self.lm_head(self.block(self.embed(ids)))

def moving_average(model, model_ema, beta=0.992, device="cpu"):
    with torch.no_grad():
        for param, param_ema in zip(model.parameters(), model_ema.parameters()):
            data = param.data.to(device)
            param_ema.data.copy_((1 - beta) * data + beta * param_ema.data)

device = torch.device("cuda:0")
actor = Actor().to(device)
ema_model = copy.deepcopy(actor)  # deepcopy of the actor, which is already on the GPU
ema_beta = 0.992
'''
CELL = '''
moving_average(actor, ema_model, ema_beta, "cpu")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ema_model"]
FIX = "namespace"
REFERENCE_FIX = '''
ema_model = Actor()                      # keep the EMA copy on the CPU
ema_model.load_state_dict(actor.state_dict())
'''
REFERENCE_EDIT = None
CLEAN = False
