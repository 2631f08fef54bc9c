"""Weighted CrossEntropyLoss criteria kept in a plain Python list are not moved with the LightningModule.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/2984
The user built one `torch.nn.CrossEntropyLoss(weight=weight)` per character position in
`self.criterions = []` and got a device error in `validation_step` at
`self.criterions[0](out_NTA[:, 0, :], batch_true_value_NT[:, 0])` once the model ran on the GPU.
awaelchli: "your criterion is in a list. nn.Module does not recognize submodules in lists" (use
`nn.ModuleList`); sykrn: "use `.cuda()` for the weight or criterion". Stand-in: a small recognizer
with the user's list of weighted criteria (a LightningModule is an nn.Module here); meta is
the accelerator (its message: "Tensor on device cpu is not on the expected device meta!").
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class JJG_Transformer(nn.Module):
    def __init__(self, n_positions=2, alphabet=94, feat=32):
        super().__init__()
        self.n_positions, self.alphabet = n_positions, alphabet
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(16 * 16, feat), nn.ReLU())
        self.head = nn.Linear(feat, n_positions * alphabet)
        self.criterions = []
        for _ in range(n_positions):
            weight = torch.ones((alphabet))
            self.criterions.append(torch.nn.CrossEntropyLoss(weight=weight))

    def forward(self, batch_im):
        return self.head(self.encoder(batch_im)).view(-1, self.n_positions, self.alphabet)

    def validation_step(self, batch, batch_idx):
        batch_im, batch_true_value_NT = batch
        out_NTA = self(batch_im)
        loss0 = self.criterions[0](out_NTA[:, 0, :], batch_true_value_NT[:, 0])
        loss1 = self.criterions[1](out_NTA[:, 1, :], batch_true_value_NT[:, 1])
        loss = loss0 + loss1
        return {"val_loss": loss, "log": {"val_loss0": loss0, "val_loss1": loss1}}

device = torch.device("meta")          # stands in for cuda:0
model = JJG_Transformer().to(device)
batch = (torch.randn(4, 1, 16, 16).to(device), torch.randint(0, 94, (4, 2)).to(device))
'''
CELL = '''
result = model.validation_step(batch, 0)
'''
EXPECT_ERROR = "is not on the expected device"
CULPRITS = ["model.criterions[0]", "model.criterions[1]"]
FIX = "namespace"
REFERENCE_FIX = '''
for criterion in model.criterions:
    criterion.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
