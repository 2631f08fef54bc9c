"""Look-alike: OpenVLA-OFT feeds a float64 numpy proprio vector to a bf16 GPU proprio projector; `predict_action` casts it to the patch embeddings' device and dtype.

Source: https://github.com/moojink/openvla-oft/blob/213c5ff8d6e9673885d7e4dd6f2ce73b5d8a45db/prismatic/extern/hf/modeling_prismatic.py
In `OpenVLAForActionPrediction.predict_action`, the proprio array coming from `normalize_proprio` (numpy,
float64, on the host) is converted with `torch.Tensor(proprio).to(projected_patch_embeddings.device,
dtype=projected_patch_embeddings.dtype)` before `_process_proprio_features` runs the `ProprioProjector`
(built by `get_proprio_projector` in experiments/robot/openvla_utils.py as `.to(torch.bfloat16).to(DEVICE)`)
and appends the proprio token to the bf16 vision patches. Stand-ins: the vision backbone/projector reduced
to a bf16 linear over patch features; `ProprioProjector` and `normalize_proprio` (BOUNDS_Q99) copied, reduced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn


class ProprioProjector(nn.Module):
    def __init__(self, llm_dim: int, proprio_dim: int) -> None:
        super().__init__()
        self.llm_dim = llm_dim
        self.proprio_dim = proprio_dim
        self.fc1 = nn.Linear(self.proprio_dim, self.llm_dim, bias=True)
        self.fc2 = nn.Linear(self.llm_dim, self.llm_dim, bias=True)
        self.act_fn1 = nn.GELU()

    def forward(self, proprio=None):
        projected_features = self.fc1(proprio)
        projected_features = self.act_fn1(projected_features)
        projected_features = self.fc2(projected_features)
        return projected_features


def normalize_proprio(proprio, norm_stats):
    mask = norm_stats.get("mask", np.ones_like(norm_stats["q01"], dtype=bool))
    proprio_high, proprio_low = np.array(norm_stats["q99"]), np.array(norm_stats["q01"])
    return np.clip(
        np.where(mask, 2 * (proprio - proprio_low) / (proprio_high - proprio_low + 1e-8) - 1, proprio),
        a_min=-1.0,
        a_max=1.0,
    )


class OpenVLAForActionPrediction(nn.Module):
    """prismatic OpenVLAForActionPrediction, reduced to the vision-patch + proprio path."""
    def __init__(self, patch_dim=32, llm_dim=64):
        super().__init__()
        self.projector = nn.Linear(patch_dim, llm_dim)

    def _process_vision_features(self, pixel_values):
        return self.projector(pixel_values)

    def _process_proprio_features(self, projected_patch_embeddings, proprio, proprio_projector):
        if proprio_projector is not None and proprio is not None:
            proprio = proprio.reshape(projected_patch_embeddings.shape[0], -1)
            proprio_features = proprio_projector(proprio)
            proprio_features = proprio_features.unsqueeze(dim=1)
            return torch.cat((projected_patch_embeddings, proprio_features), dim=1)
        return projected_patch_embeddings

    def predict_action(self, pixel_values, proprio=None, proprio_projector=None):
        projected_patch_embeddings = self._process_vision_features(pixel_values)
        use_proprio = proprio_projector is not None and proprio is not None
        if use_proprio:
            proprio = torch.Tensor(proprio).to(projected_patch_embeddings.device, dtype=projected_patch_embeddings.dtype)
            projected_patch_embeddings = self._process_proprio_features(
                projected_patch_embeddings, proprio, proprio_projector
            )
        return projected_patch_embeddings


DEVICE = torch.device("cuda:0")
vla = OpenVLAForActionPrediction().to(DEVICE).to(torch.bfloat16)
proprio_projector = ProprioProjector(llm_dim=64, proprio_dim=8).to(DEVICE)
proprio_projector = proprio_projector.to(torch.bfloat16).to(DEVICE)
proprio_norm_stats = {"q01": np.full(8, -0.5), "q99": np.full(8, 0.5)}
obs = {"state": np.random.uniform(-0.4, 0.4, size=8)}
pixel_values = torch.randn(1, 256, 32, device=DEVICE, dtype=torch.bfloat16)
'''
CELL = '''
proprio = normalize_proprio(obs["state"], proprio_norm_stats)
multimodal_embeddings = vla.predict_action(pixel_values, proprio=proprio, proprio_projector=proprio_projector)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
