"""Look-alike: lightly's MoCo example never moves `criterion` (its memory bank stays on the CPU) and keeps momentum copies.

Source: https://github.com/lightly-ai/lightly/blob/master/examples/pytorch/moco.py
The example builds `MoCo(backbone)` with `backbone_momentum = copy.deepcopy(backbone)` (submodules,
so `model.to(device)` moves them too) and `criterion = NTXentLoss(memory_bank_size=(4096, 128))`,
which is never sent to the device: the memory bank is a (non-persistent) buffer of a module nobody
moves, so it lives on the CPU while query/key are on cuda. That is by design:
`NTXentLoss.forward` does `negatives = negatives.to(device)` before the einsum and builds its labels
with `device=device`. `update_momentum` mixes the EMA weights in place, all on the GPU. It runs.
Stand-ins: lightly's MemoryBankModule / NTXentLoss (memory-bank branch), MoCoProjectionHead,
`deactivate_requires_grad` / `update_momentum`; a tiny conv backbone instead of ResNet-18.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn

class MemoryBankModule(nn.Module):
    """Stand-in for lightly.models.modules.MemoryBankModule."""
    def __init__(self, size=(4096, 128), feature_dim_first=True):
        super().__init__()
        self.size = tuple(size)
        self.feature_dim_first = feature_dim_first
        self.register_buffer("bank", torch.empty(size=self.size, dtype=torch.float), persistent=False)
        self.register_buffer("bank_ptr", torch.empty(1, dtype=torch.long), persistent=False)
        self._init_memory_bank(self.size)

    @torch.no_grad()
    def _init_memory_bank(self, size):
        self.bank = nn.functional.normalize(torch.randn(size).type_as(self.bank), dim=-1)
        self.bank_ptr = torch.zeros(1).type_as(self.bank_ptr)

    def forward(self, output, labels=None, update=False):
        bank = self.bank.clone().detach()
        if self.feature_dim_first:
            bank = bank.transpose(0, -1)
        if update:
            self._dequeue_and_enqueue(output)
        return output, bank

    @torch.no_grad()
    def _dequeue_and_enqueue(self, batch):
        batch_size = batch.shape[0]
        ptr = int(self.bank_ptr)
        self.bank[ptr: ptr + batch_size] = batch.detach()
        self.bank_ptr[0] = (ptr + batch_size) % self.size[0]

class NTXentLoss(nn.Module):
    """Stand-in for lightly.loss.NTXentLoss (memory-bank branch)."""
    def __init__(self, temperature=0.5, memory_bank_size=0):
        super().__init__()
        self.temperature = temperature
        self.cross_entropy = nn.CrossEntropyLoss(reduction="mean")
        self.memory_bank = MemoryBankModule(size=memory_bank_size)

    def forward(self, out0, out1):
        device = out0.device
        out0 = nn.functional.normalize(out0, dim=1)
        out1 = nn.functional.normalize(out1, dim=1)
        out1, negatives = self.memory_bank.forward(out1, update=out0.requires_grad)
        negatives = negatives.to(device)
        sim_pos = torch.einsum("nc,nc->n", out0, out1).unsqueeze(-1)
        sim_neg = torch.einsum("nc,ck->nk", out0, negatives)
        logits = torch.cat([sim_pos, sim_neg], dim=1) / self.temperature
        labels = torch.zeros(logits.shape[0], device=device, dtype=torch.long)
        return self.cross_entropy(logits, labels)

class MoCoProjectionHead(nn.Module):
    def __init__(self, input_dim=64, hidden_dim=64, output_dim=32):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(input_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, output_dim))

    def forward(self, x):
        return self.layers(x)

def deactivate_requires_grad(model):
    for param in model.parameters():
        param.requires_grad = False

@torch.no_grad()
def update_momentum(model, model_ema, m):
    for model_ema_param, model_param in zip(model_ema.parameters(), model.parameters()):
        model_ema_param.data = model_ema_param.data * m + model_param.data * (1.0 - m)

class MoCo(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.projection_head = MoCoProjectionHead(64, 64, 32)
        self.backbone_momentum = copy.deepcopy(self.backbone)
        self.projection_head_momentum = copy.deepcopy(self.projection_head)
        deactivate_requires_grad(self.backbone_momentum)
        deactivate_requires_grad(self.projection_head_momentum)

    def forward(self, x):
        query = self.backbone(x).flatten(start_dim=1)
        return self.projection_head(query)

    def forward_momentum(self, x):
        key = self.backbone_momentum(x).flatten(start_dim=1)
        return self.projection_head_momentum(key).detach()

backbone = nn.Sequential(nn.Conv2d(3, 64, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
model = MoCo(backbone)
device = "cuda:0"      # "cuda" if torch.cuda.is_available() else "cpu"
model.to(device)
criterion = NTXentLoss(memory_bank_size=(256, 32))
dataloader = [((torch.randn(8, 3, 32, 32), torch.randn(8, 3, 32, 32)), torch.zeros(8, dtype=torch.long))]
momentum_val = 0.996
'''
CELL = '''
for batch in dataloader:
    x_query, x_key = batch[0]
    update_momentum(model.backbone, model.backbone_momentum, m=momentum_val)
    update_momentum(model.projection_head, model.projection_head_momentum, m=momentum_val)
    x_query = x_query.to(device)
    x_key = x_key.to(device)
    query = model(x_query)
    key = model.forward_momentum(x_key)
    loss = criterion(query, key)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
