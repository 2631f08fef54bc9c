"""torchgeo + Lightning: after GPU augmentation in `on_after_batch_transfer`, `batch["image"]` is back on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/20456
A torchgeo segmentation datamodule applies its kornia `AugmentationSequential` (image and mask keys) to the
batch after Lightning moved it to the GPU; with kornia 0.7.4 the sanity check then fails in the model with
"Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same": the
container hands the augmented image back on the CPU (kornia#3066) while the mask stays on the GPU. The
workaround posted in the thread (robmarkcole, calebrob6 confirming): move the batch tensors to the model's
device after augmentation, `batch["image"].to(self.device)`.
Stand-in: kornia 0.7.4's container output path (first output sent to the CPU), the datamodule hook already
applied to a batch dict, and a per-pixel segmentation head on cuda:0 (Linear over channels, so the fake
device check fires where the real conv raised).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

def _detach_tensor_to_cpu(t):
    return t.detach().cpu()

class RandomHorizontalFlip(nn.Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        return x.flip(-1)

class AugmentationSequential(nn.Module):
    """kornia 0.7.4 AugmentationSequential reduced to the data_keys output path."""
    def __init__(self, *augs, data_keys=("input",)):
        super().__init__()
        self.augs = nn.ModuleList(augs)
        self.data_keys = list(data_keys)

    def forward(self, batch):
        out = dict(batch)
        for key in self.data_keys:
            x = batch[key]
            for a in self.augs:
                x = a(x)
            out[key] = x
        first = self.data_keys[0]
        out[first] = _detach_tensor_to_cpu(out[first])   # 0.7.4: outputs detached to the CPU
        return out

class SegHead(nn.Module):
    def __init__(self, in_channels=4, num_classes=3):
        super().__init__()
        self.proj = nn.Linear(in_channels, 16)
        self.cls = nn.Linear(16, num_classes)

    def forward(self, x):                                  # x: (B, C, H, W)
        h = torch.relu(self.proj(x.permute(0, 2, 3, 1)))
        return self.cls(h).permute(0, 3, 1, 2)

model = SegHead(in_channels=4, num_classes=3).to("cuda:0")
train_aug = AugmentationSequential(RandomHorizontalFlip(p=0.5), data_keys=["image", "mask"])

# on_after_batch_transfer: Lightning already moved the batch to cuda:0, then the datamodule augments it
batch = {"image": torch.rand(2, 4, 32, 32, device="cuda:0"),
         "mask": torch.randint(0, 3, (2, 32, 32), device="cuda:0")}
batch = train_aug(batch)
'''
CELL = '''
y_hat = model(batch["image"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch['image']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["image"] = batch["image"].to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
