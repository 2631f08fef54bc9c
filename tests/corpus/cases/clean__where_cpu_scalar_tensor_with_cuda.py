"""Look-alike: torch.where with a 0-dim CPU tensor as the fill value next to cuda tensors.

Source: https://github.com/akarasman/yolo-heatmaps/issues/13
`torch.where(outlier_mask, lrp_p, torch.tensor(0.0))` failed on older PyTorch ("Expected
condition, x and y to be on the same device"); since pytorch/pytorch#87022 `where` accepts CPU
scalar (0-dim) tensors like other ops do, so this line is legal today and must not be flagged.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

lrp_p = torch.randn(1, 3, 16, 16, device="cuda:0")
outlier_mask = lrp_p.abs() < 2.5
'''
CELL = '''
explanation = torch.where(outlier_mask, lrp_p, torch.tensor(0.0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
