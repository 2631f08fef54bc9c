"""meds-torch collate: `tensors.to(device)` is called but its result is thrown away, so the batch stays on the CPU.

Source: https://github.com/Oufattole/meds-torch/pull/16
In the triplet collate function the padded tensors were "moved" with a bare `tensors.to(device)`
before being stored in the collated batch; `Tensor.to` is not in place, so the model on the GPU
received CPU tensors. The review fix assigns the result: `tensors = tensors.to(device)`.
Stand-in: the collate over per-patient dicts of code/value lists and a small triplet encoder on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

L2_KEYS = ["code", "numeric_value", "time_delta_days"]

def alt_collate_value(seq_len, batch, key):
    out = torch.zeros(len(batch), seq_len)
    lengths = []
    for i, sample in enumerate(batch):
        vals = torch.as_tensor(sample[key][:seq_len], dtype=torch.float32)
        out[i, : len(vals)] = vals
        lengths.append(len(vals))
    return out, lengths

def collate_strats_triplets(seq_len, batch, device=None):
    collated_batch = {}
    for key in L2_KEYS:
        tensors, lengths = alt_collate_value(seq_len, batch, key)
        tensors.to(device)
        collated_batch[key] = tensors
    collated_batch["length"] = lengths
    return collated_batch

class TripletEncoder(nn.Module):
    def __init__(self, seq_len=6, dim=8):
        super().__init__()
        self.code_proj = nn.Linear(seq_len, dim)
        self.value_proj = nn.Linear(seq_len, dim)
        self.time_proj = nn.Linear(seq_len, dim)
        self.head = nn.Linear(dim, 1)
    def forward(self, batch):
        h = self.code_proj(batch["code"]) + self.value_proj(batch["numeric_value"]) \\
            + self.time_proj(batch["time_delta_days"])
        return self.head(torch.relu(h))

device = torch.device("cuda:0")
model = TripletEncoder().to(device)
samples = [
    {"code": [3, 7, 9], "numeric_value": [0.1, 1.5, 2.0], "time_delta_days": [0.0, 1.0, 3.0]},
    {"code": [2, 4, 4, 8, 1], "numeric_value": [0.3, 0.0, 0.2, 1.1, 0.9], "time_delta_days": [0.0, 0.5, 0.5, 2.0, 7.0]},
]
'''
CELL = '''
batch = collate_strats_triplets(6, samples, device=device)
logits = model(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        tensors.to(device)\n", "        tensors = tensors.to(device)\n")
CLEAN = False
