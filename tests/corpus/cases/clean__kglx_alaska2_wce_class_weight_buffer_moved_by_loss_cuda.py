"""Look-alike: ALASKA2 prize solution `get_loss("wce")` builds the class weights as a CPU tensor, but `.cuda()` on the `CrossEntropyLoss` moves that weight buffer.

Source: https://github.com/BloodAxe/Kaggle-2020-Alaska2/blob/3c1f5e8e564c9f04423beef69244fc74168f88ca/alaska2/loss.py
The Kaggle ALASKA2 Image Steganalysis solution (team ABBA) picks its losses by name;
`"wce"` returns `nn.CrossEntropyLoss(reduction=..., weight=torch.tensor([2, 1, 2, 1]).float()).cuda()`
and `"wbce"` a `BCEWithLogitsLoss(pos_weight=torch.tensor(0.33).float()).cuda()`. A class weight made
without a device is the classic CPU stray, but `weight`/`pos_weight` are registered buffers of the
loss module, so the module's `.cuda()` carries them to the GPU with the logits. Stand-in: the
4-class (Cover/JMiPOD/JUNIWARD/UERD) EfficientNet reduced to conv + pooling + linear; catalyst's
criterion callback reduced to one call; `.cuda()` is written `.to('cuda:0')`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


def get_loss(loss_name: str, tsa=False):
    if loss_name.lower() == "bce":
        return nn.BCEWithLogitsLoss(reduction="none" if tsa else "mean")

    if loss_name.lower() == "wbce":
        return nn.BCEWithLogitsLoss(reduction="none" if tsa else "mean", pos_weight=torch.tensor(0.33).float()).to('cuda:0')

    if loss_name.lower() == "ce":
        return nn.CrossEntropyLoss(reduction="none" if tsa else "mean")

    if loss_name.lower() == "wce":
        return nn.CrossEntropyLoss(
            reduction="none" if tsa else "mean", weight=torch.tensor([2, 1, 2, 1]).float()
        ).to('cuda:0')

    raise KeyError(loss_name)


class TimmRgbModel(nn.Module):
    """Stand-in for the timm EfficientNet classifier over the 4 ALASKA2 classes."""
    def __init__(self, num_classes=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.type_classifier = nn.Linear(16, num_classes)

    def forward(self, image):
        return self.type_classifier(self.encoder(image))


device = torch.device('cuda:0')
model = TimmRgbModel().to(device)
criterion = get_loss("wce")
image = torch.randn(8, 3, 32, 32)                 # a batch from the DataLoader
true_modification_type = torch.randint(0, 4, (8,))
'''
CELL = '''
with torch.no_grad():
    logits = model(image.to(device))
    loss = criterion(logits, true_modification_type.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
