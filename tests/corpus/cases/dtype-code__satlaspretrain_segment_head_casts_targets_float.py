"""SatlasPretrain segmentation head: the class-index targets are cast to float before cross_entropy.

Source: https://github.com/allenai/satlaspretrain_models/issues/5
"Required Long instead of Float cast for target tensor in Cross-Entropy based tasks?": in
`SimpleHead.forward` the 'segment' (and 'bin_segment') branches did
`task_targets = torch.stack([target['im'] ...])` and passed `task_targets.float()` to
`F.cross_entropy`, which needs class indices as int64 ("expected target dtype to be Long or Byte").
The maintainer fixed it with `.long()`. Stand-in: a tiny backbone and SimpleHead's segment branch.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class SimpleHead(nn.Module):
    """satlaspretrain_models.models.heads.SimpleHead, 'segment' task (v0.1, reduced)."""
    def __init__(self, task, backbone_channels, num_outputs=2):
        super().__init__()
        self.task_type = task
        use_channels = backbone_channels[0][1]
        self.num_outputs = num_outputs
        self.layers = nn.Sequential(
            nn.Sequential(nn.Conv2d(use_channels, use_channels, 3, padding=1), nn.ReLU(inplace=True)),
            nn.Conv2d(use_channels, self.num_outputs, 3, padding=1),
        )
        self.loss_func = lambda logits, targets: torch.nn.functional.cross_entropy(
            logits, targets, reduction="none")

    def forward(self, image_list, raw_features, targets=None):
        raw_outputs = self.layers(raw_features[0])
        loss = None
        if self.task_type == "segment":
            outputs = torch.nn.functional.softmax(raw_outputs, dim=1)
            if targets is not None:
                task_targets = torch.stack([target["im"] for target in targets], dim=0)
                task_valid = torch.stack([target["valid_im"] for target in targets], dim=0)
                loss = self.loss_func(raw_outputs, task_targets.float()) * task_valid
                loss = loss.mean()
        return outputs, loss

class SegmentationModel(nn.Module):
    def __init__(self, num_categories=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(9, 16, 3, padding=1), nn.ReLU())
        self.head = SimpleHead("segment", [(1, 16)], num_outputs=num_categories)

    def forward(self, imgs, targets=None):
        return self.head(imgs, [self.backbone(imgs)], targets)

model = SegmentationModel()
imgs = torch.randn(2, 9, 32, 32)                          # Sentinel-2 bands
targets = [{"im": torch.randint(0, 4, (32, 32)), "valid_im": torch.ones(32, 32)} for _ in range(2)]
'''
CELL = '''
outputs, loss = model(imgs, targets)
'''
EXPECT_ERROR = "expected target dtype to be Long or Byte"
CULPRITS = ["task_targets"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.loss_func(raw_outputs, task_targets.float())",
                  "self.loss_func(raw_outputs, task_targets.long())")
CLEAN = False
