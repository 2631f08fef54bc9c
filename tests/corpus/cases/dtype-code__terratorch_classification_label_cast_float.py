"""TerraTorch ClassificationTask: the training step casts the class labels to float32 before the cross-entropy.

Source: https://github.com/torchgeo/terratorch/issues/632
"ClassificationTask fails during training": with a GenericNonGeoClassificationDataModule,
`trainer.fit(model, datamodule=datamodule)` failed with '"nll_loss_forward_reduce_cuda_kernel_2d_index"
not implemented for 'Float''. The reporter: "the label is casted to float before being passed to
calculate loss" in `classification_tasks.py`; PR #644 ("The classification ground truth should be
`int`") removed the float cast. Stand-in: the task's training step and a small classifier, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class ClassificationTask(nn.Module):
    def __init__(self, num_classes=4, in_channels=6):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(in_channels, 8, 3, padding=1), nn.ReLU(),
                                   nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, num_classes))
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return self.model(x)

    def training_step(self, batch, batch_idx, dataloader_idx=0):
        x = batch["image"]
        y = batch["label"]
        model_output = self(x)
        loss = self.criterion(model_output, y.to(torch.float32))
        return loss

task = ClassificationTask()
batch = {"image": torch.randn(8, 6, 16, 16), "label": torch.randint(0, 4, (8,))}
'''
CELL = '''
loss = task.training_step(batch, 0)
loss.backward()
'''
EXPECT_ERROR = ("expected target dtype to be Long or Byte, but got Float",
                "not implemented for 'Float'", "expected scalar type Long but found Float")
CULPRITS = ["task"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("loss = self.criterion(model_output, y.to(torch.float32))",
                  "loss = self.criterion(model_output, y.long())")
CLEAN = False
