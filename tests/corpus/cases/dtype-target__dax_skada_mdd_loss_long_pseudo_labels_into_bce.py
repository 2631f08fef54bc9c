"""skada's MDD loss feeds argmax pseudo-labels (int64) to its default BCE discriminator criterion.

Source: https://github.com/scikit-adaptation/skada/pull/273
"Convert pseudo labels to float in mddloss forward function": running MDD in skada-bench failed in
`MDDLoss.forward` at `disc_loss_src = self.disc_criterion_(disc_pred_s, pseudo_label_s)` because
`pseudo_label_s = torch.argmax(y_pred_s, axis=-1)` is a LongTensor and the default criterion is a
`BCELoss`, which needs float targets ("Found dtype Long but expected Float"). The PR casts the pseudo
labels with `.float()`. Stand-in: skada's MDDLoss forward with a one-unit sigmoid domain classifier and a
small classifier, one source/target batch; CPU only (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

class MDDLoss(nn.Module):
    def __init__(self, gamma=4.0, disc_criterion=None):
        super().__init__()
        self.gamma = gamma
        self.disc_criterion_ = nn.BCELoss() if disc_criterion is None else disc_criterion

    def forward(self, y_s, y_pred_s, y_pred_t, domain_pred_s, domain_pred_t, features_s, features_t):
        disc_pred_s = domain_pred_s
        disc_pred_t = domain_pred_t
        pseudo_label_s = torch.argmax(y_pred_s, axis=-1)
        pseudo_label_t = torch.argmax(y_pred_t, axis=-1)
        disc_loss_src = self.disc_criterion_(disc_pred_s, pseudo_label_s)
        disc_loss_tgt = self.disc_criterion_(disc_pred_t, pseudo_label_t)
        return self.gamma * disc_loss_src - disc_loss_tgt

feature_extractor = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
classifier = nn.Linear(16, 2)
domain_classifier = nn.Sequential(nn.Linear(16, 1), nn.Sigmoid(), nn.Flatten(0))
criterion = MDDLoss(gamma=4.0)

X_s, y_s = torch.randn(8, 10), torch.randint(0, 2, (8,))
X_t = torch.randn(8, 10)
'''
CELL = '''
features_s, features_t = feature_extractor(X_s), feature_extractor(X_t)
y_pred_s, y_pred_t = classifier(features_s), classifier(features_t)
domain_pred_s, domain_pred_t = domain_classifier(features_s), domain_classifier(features_t)
loss = criterion(y_s, y_pred_s, y_pred_t, domain_pred_s, domain_pred_t, features_s, features_t)
loss.backward()
'''
EXPECT_ERROR = ("Found dtype Long but expected Float", "expected scalar type", "can't be cast")
CULPRITS = ["criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "pseudo_label_s = torch.argmax(y_pred_s, axis=-1)\n        pseudo_label_t = torch.argmax(y_pred_t, axis=-1)",
    "pseudo_label_s = torch.argmax(y_pred_s, axis=-1).float()\n        pseudo_label_t = torch.argmax(y_pred_t, axis=-1).float()",
)
CLEAN = False
