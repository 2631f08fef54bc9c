"""accelerate + DeepSpeed fp16: the CNN is cast to half, the dataloader's float32 images reach its first conv.

Source: https://github.com/huggingface/accelerate/issues/3290
A dummy training script (random 3x64x64 images, a small CNN) run with `accelerate launch` and a
DeepSpeed config with fp16 enabled fails at the first `nn.Conv2d` with "Input type (float) and bias
type (c10::Half) should be the same": DeepSpeed's fp16 engine converts the model's weights to half but
leaves the batch as it comes from the DataLoader; the inputs must be cast (`images.half()`) or the
model run under autocast. Stand-in: `accelerator.prepare` reduced to what the DeepSpeed fp16 engine
does to the model (`.half()`); CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

class DummyDataset(Dataset):
    def __init__(self, size=16):
        self.size = size
    def __len__(self):
        return self.size
    def __getitem__(self, idx):
        image = torch.randn(3, 64, 64).float()
        label = torch.randint(0, 2, (1,))[0]
        return image, label

class DummyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, kernel_size=3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(32, 2)
    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))

class Accelerator:
    # stand-in: DeepSpeed plugin with {"fp16": {"enabled": true}}
    def prepare(self, model, optimizer, dataloader):
        model = model.half()          # DeepSpeedEngine._configure_distributed_model: module.half()
        return model, optimizer, dataloader

accelerator = Accelerator()
model = DummyModel()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
dataloader = DataLoader(DummyDataset(), batch_size=4)
model, optimizer, dataloader = accelerator.prepare(model, optimizer, dataloader)
images, labels = next(iter(dataloader))
'''
CELL = '''
outputs = model(images)
loss = nn.functional.cross_entropy(outputs.float(), labels)
'''
EXPECT_ERROR = ("should be the same", "same dtype")
CULPRITS = ["images"]
FIX = "namespace"
REFERENCE_FIX = '''
images = images.half()
'''
REFERENCE_EDIT = None
CLEAN = False
