"""sd-mecha `ties_sum_with_dropout` merge on the GPU: the dropout mask is drawn on the CPU.

Source: https://github.com/ljleb/comfy-mecha/issues/15
Merging models with the TIES + dropout (DARE) method in ComfyUI on a GPU failed with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" at
`deltas = [delta * torch.bernoulli(torch.full(delta.shape, 1 - probability)) for delta in deltas]`:
the task-vector deltas are on cuda:0 but `torch.full(delta.shape, ...)` has no device, so the
Bernoulli mask is on the CPU. Fix: build the mask on the delta's device.
Stand-in: the merge method reduced to the dropout + TIES sign election, two fine-tuned state dicts
on cuda:0 minus their base.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def ties_sum_with_dropout(*deltas, probability=0.9, della_eps=0.0, k=0.2):
    deltas = [delta * torch.bernoulli(torch.full(delta.shape, 1 - probability)) for delta in deltas]
    deltas = [delta / (1 - probability) for delta in deltas]
    stacked = torch.stack(deltas, dim=0)
    signs = torch.sign(stacked.sum(dim=0))
    agree = torch.sign(stacked) == signs
    return (stacked * agree).sum(dim=0)

base = {"w": torch.randn(16, 16, device="cuda:0"), "b": torch.randn(16, device="cuda:0")}
model_a = {k: v + 0.01 * torch.randn(v.shape, device="cuda:0") for k, v in base.items()}
model_b = {k: v + 0.01 * torch.randn(v.shape, device="cuda:0") for k, v in base.items()}
'''
CELL = '''
merged = {k: base[k] + ties_sum_with_dropout(model_a[k] - base[k], model_b[k] - base[k], probability=0.3)
          for k in base}
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ties_sum_with_dropout"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.full(delta.shape, 1 - probability)",
                  "torch.full(delta.shape, 1 - probability, device=delta.device)")
CLEAN = False
