"""MIPCandy class_percentages: `torch.bincount` on a segmentation label that resampling turned into floats.

Source: https://github.com/ProjectNeura/MIPCandy/issues/224
"bincount in class_percentages fails on float labels": `segmentation.py` computes class shares
with `torch.bincount`, which "requires integer tensors but label can be float after
resampling/padding". The label volume, resampled with `interpolate` (nearest) to the target
spacing and padded, comes back float32; bincount raises. Stand-in: the resample + pad of a label
map and `class_percentages` as a plain function.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn.functional as F

def class_percentages(label, num_classes):
    counts = torch.bincount(label.flatten(), minlength=num_classes)
    return counts.float() / counts.sum()

raw_label = torch.randint(0, 4, (1, 1, 16, 16, 8))
label = F.interpolate(raw_label.float(), size=(24, 24, 12), mode="nearest")   # align spacing
label = F.pad(label, (2, 2, 4, 4, 4, 4))[0, 0]                                  # pad to patch size
'''
CELL = '''
shares = class_percentages(label, num_classes=4)
'''
EXPECT_ERROR = ("not implemented for 'Float'", "bincount only supports 1-d non-negative integral inputs")
CULPRITS = ["label"]
FIX = "namespace"
REFERENCE_FIX = '''
label = label.long()
'''
REFERENCE_EDIT = None
CLEAN = False
