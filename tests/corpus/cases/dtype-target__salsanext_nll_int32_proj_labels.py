"""SalsaNext's trainer feeds int32 projected labels to NLLLoss (it casts only the Lovasz term).

Source: https://github.com/TiagoCortinhal/SalsaNext/issues/54
"Long type expected, Int provided": trainer.py line 384,
`loss_m = criterion(torch.log(output.clamp(min=1e-8)), proj_labels) + self.ls(output, proj_labels.long())`
- `proj_labels` come from the dataset as int32, and only the Lovasz-softmax term got `.long()`;
the reporter's fix casts the NLL target too. Stand-ins: the Lovasz loss (a soft-IoU surrogate)
and a softmax output of the right shape.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Lovasz_softmax(nn.Module):
    """SalsaNext's Lovasz-softmax (stand-in: a soft-IoU surrogate with the same inputs)."""

    def forward(self, probas, labels):
        one_hot = torch.nn.functional.one_hot(labels, probas.shape[1]).permute(0, 3, 1, 2).float()
        inter = (probas * one_hot).sum(dim=(0, 2, 3))
        union = (probas + one_hot - probas * one_hot).sum(dim=(0, 2, 3))
        return (1 - inter / union.clamp(min=1e-8)).mean()

n_classes = 20
weights = torch.ones(n_classes)
criterion = nn.NLLLoss(weight=weights)
ls = Lovasz_softmax()

rng = np.random.default_rng(0)
proj_labels = torch.from_numpy(rng.integers(0, n_classes, (2, 64, 256)).astype(np.int32))
output = torch.softmax(torch.randn(2, n_classes, 64, 256), dim=1)
'''
CELL = '''
loss_m = criterion(torch.log(output.clamp(min=1e-8)), proj_labels) + ls(output, proj_labels.long())
'''
EXPECT_ERROR = ("expected scalar type Long", "expected target dtype to be Long")
CULPRITS = ["proj_labels"]
FIX = "namespace"
REFERENCE_FIX = '''
proj_labels = proj_labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
