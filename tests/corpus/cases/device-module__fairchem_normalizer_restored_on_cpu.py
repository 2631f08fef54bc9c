"""Resuming an OCP/fairchem run: the target normalizer's mean/std come back from the checkpoint on the CPU.

Source: https://github.com/facebookresearch/fairchem/pull/813
"load linref and normalizer on cuda device when resuming from checkpoint": `load_checkpoint`
restored the model (moved to the device) and the normalizers from `checkpoint["normalizers"]`
with the checkpoint's CPU tensors; the normalizer is a plain helper object, not a module, so
nothing moved its `mean`/`std`, and de-normalizing the cuda predictions mixed devices. The PR
loads the checkpoint with `map_location=self.device`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Normalizer:
    """Normalize a tensor and restore it later (fairchem's target normalizer)."""
    def __init__(self, mean=None, std=None, device="cpu"):
        self.mean = torch.as_tensor(mean).to(device)
        self.std = torch.as_tensor(std).to(device)

    def norm(self, tensor):
        return (tensor - self.mean) / self.std

    def denorm(self, normed_tensor):
        return normed_tensor * self.std + self.mean

    def load_state_dict(self, state_dict):
        self.mean = state_dict["mean"]
        self.std = state_dict["std"]

class EnergyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)

device = torch.device("cuda:0")
checkpoint = {"state_dict": EnergyModel().state_dict(),
              "normalizers": {"target": {"mean": torch.tensor(-0.71), "std": torch.tensor([2.3])}}}
model = EnergyModel()
model.load_state_dict(checkpoint["state_dict"])
model = model.to(device)
normalizers = {"target": Normalizer(mean=0.0, std=1.0, device=device)}
normalizers["target"].load_state_dict(checkpoint["normalizers"]["target"])
batch = torch.randn(16, 8).to(device)
'''
CELL = '''
with torch.no_grad():
    energy = normalizers["target"].denorm(model(batch))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["normalizers['target'].std"]
FIX = "namespace"
REFERENCE_FIX = '''
normalizers["target"].mean = normalizers["target"].mean.to(device)
normalizers["target"].std = normalizers["target"].std.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
