"""lucidrains slot-attention on the GPU: the initial slots add `torch.randn(mu.shape)` drawn on the CPU.

Source: https://github.com/lucidrains/slot-attention/issues/7
Running `SlotAttention` on a GPU raised "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cpu!". The reporter traced it to `slots = mu + sigma * torch.randn(mu.shape)`:
`torch.randn()` samples on the CPU while `mu` and `sigma` (expanded from the `slots_mu` /
`slots_sigma` parameters) are on the GPU. Fixed in 1.1.1 by sampling on the parameters' device.
Stand-in: the module with its projections and one simplified attention/update iteration (a Linear
in place of the GRU + MLP).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class SlotAttention(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8, hidden_dim=128):
        super().__init__()
        self.num_slots = num_slots
        self.iters = iters
        self.eps = eps
        self.scale = dim ** -0.5
        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_sigma = nn.Parameter(torch.rand(1, 1, dim))
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.update = nn.Linear(2 * dim, dim)
        self.norm_input = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)

    def forward(self, inputs, num_slots=None):
        b, n, d = inputs.shape
        n_s = num_slots if num_slots is not None else self.num_slots
        mu = self.slots_mu.expand(b, n_s, -1)
        sigma = self.slots_sigma.expand(b, n_s, -1)
        slots = mu + sigma * torch.randn(mu.shape)
        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            slots_prev = slots
            q = self.to_q(self.norm_slots(slots))
            dots = torch.einsum('bid,bjd->bij', q, k) * self.scale
            attn = dots.softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)
            updates = torch.einsum('bjd,bij->bid', v, attn)
            slots = self.update(torch.cat([updates, slots_prev], dim=-1))
        return slots

slot_attn = SlotAttention(num_slots=5, dim=64, iters=3).to("cuda:0")
inputs = torch.randn(2, 256, 64, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    slots = slot_attn(inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["slot_attn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("slots = mu + sigma * torch.randn(mu.shape)",
                  "slots = mu + sigma * torch.randn(mu.shape, device=mu.device)")
CLEAN = False
