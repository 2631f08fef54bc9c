"""timm: a pretrained model cast to bfloat16, then its classifier reset for a new number of classes; the new head is float32.

Source: https://github.com/huggingface/pytorch-image-models/pull/2743
`ClassifierHead.reset` (and the MLP heads) rebuilt the replacement Linear with PyTorch's defaults,
CPU and float32: "Resetting a head after moving the model to another dtype therefore produced
mixed-dtype modules and made the next forward pass fail." The usual flow: `create_model(...,
pretrained=True)`, `.to(torch.bfloat16)`, `reset_classifier(num_classes)` for fine-tuning, then a
bf16 batch. Stand-in: a small conv model with timm's ClassifierHead/reset structure; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class ClassifierHead(nn.Module):
    def __init__(self, in_features, num_classes, pool_type="avg"):
        super().__init__()
        self.in_features = in_features
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten(1)
        self.fc = nn.Linear(in_features, num_classes)

    def reset(self, num_classes, pool_type=None):
        self.fc = nn.Linear(self.in_features, num_classes) if num_classes > 0 else nn.Identity()

    def forward(self, x):
        return self.fc(self.flatten(self.global_pool(x)))

class ResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU())
        self.stages = nn.Sequential(nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU())
        self.num_features = 32
        self.head = ClassifierHead(self.num_features, num_classes)

    def reset_classifier(self, num_classes, global_pool=None):
        self.head.reset(num_classes, global_pool)

    def forward(self, x):
        return self.head(self.stages(self.stem(x)))

def create_model(name, pretrained=False, num_classes=1000):
    model = ResNet(num_classes)
    if pretrained:
        model.load_state_dict(ResNet(num_classes).state_dict())
    return model

model = create_model("resnet18", pretrained=True)
model = model.to(torch.bfloat16)
model.reset_classifier(10)
images = torch.randn(4, 3, 32, 32, dtype=torch.bfloat16)
'''
CELL = '''
logits = model(images)
'''
EXPECT_ERROR = "must have the same dtype"
CULPRITS = ["model.head.fc"]
FIX = "namespace"
REFERENCE_FIX = '''
model.head.fc.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
