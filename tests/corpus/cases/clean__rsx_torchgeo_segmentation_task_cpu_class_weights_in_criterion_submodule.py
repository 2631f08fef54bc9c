"""TorchGeo `SemanticSegmentationTask`: class weights made on the CPU live in a criterion that is a submodule.

Source: https://github.com/torchgeo/torchgeo/blob/main/torchgeo/trainers/segmentation.py
`configure_losses` turns the `class_weights` list into `torch.tensor(class_weights,
dtype=torch.float32)` on the CPU and builds `self.criterion = nn.CrossEntropyLoss(ignore_index=...,
weight=class_weights)`. Because the criterion is assigned as an attribute of the task (a
LightningModule), its `weight` buffer is registered and moves with the task when Lightning puts it on
the GPU, so the loss on cuda logits and masks runs. Look-alike: a CPU class-weight tensor next to a
GPU model, which is fine here.
Stand-ins: the task as an `nn.Module` with a tiny UNet-like model; `.to(device)` for the Trainer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import Tensor, nn


class Unet(nn.Module):
    def __init__(self, in_channels, classes):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(in_channels, 16, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        return self.head(self.encoder(x))


class SemanticSegmentationTask(nn.Module):
    def __init__(self, in_channels=4, num_classes=5, loss="ce", class_weights=None, ignore_index=None):
        super().__init__()
        self.hparams = {"loss": loss, "class_weights": class_weights, "ignore_index": ignore_index,
                        "num_classes": num_classes}
        self.model = Unet(in_channels, num_classes)
        self.configure_losses()

    def configure_losses(self):
        ignore_index = self.hparams["ignore_index"]
        class_weights = self.hparams["class_weights"]
        if class_weights is not None and not isinstance(class_weights, Tensor):
            class_weights = torch.tensor(class_weights, dtype=torch.float32)
        if self.hparams["loss"] == "ce":
            ignore_value = -1000 if ignore_index is None else ignore_index
            self.criterion = nn.CrossEntropyLoss(ignore_index=ignore_value, weight=class_weights)

    def forward(self, x):
        return self.model(x)

    def training_step(self, batch, batch_idx):
        x = batch["image"]
        y = batch["mask"]
        y_hat = self(x)
        return self.criterion(y_hat, y)


device = torch.device("cuda:0")
task = SemanticSegmentationTask(in_channels=4, num_classes=5, class_weights=[0.1, 1.0, 2.0, 2.0, 5.0])
task = task.to(device)                                     # the Lightning Trainer on one GPU
batch = {
    "image": torch.rand(2, 4, 32, 32).to(device),          # NAIP RGB+NIR chips
    "mask": torch.randint(0, 5, (2, 32, 32)).to(device),
}
'''
CELL = '''
with torch.no_grad():
    loss = task.training_step(batch, 0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
