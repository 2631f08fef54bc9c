"""Look-alike: knowledge distillation with a frozen teacher and a student, both on the device, soft targets.

Source: https://github.com/pytorch/tutorials/pull/2514
The knowledge-distillation tutorial moves both networks to the device, runs the teacher in eval
mode under `torch.no_grad()`, and mixes a temperature-scaled soft-target loss (with a Python
float `T**2` factor) with the hard-label cross entropy. Two models and several loss terms, all on
one device; nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class DeepNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))

class LightNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(4, num_classes)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))

device = torch.device("cuda:0")
teacher = DeepNN().to(device)
student = LightNN().to(device)
ce_loss = nn.CrossEntropyLoss()
T, soft_target_loss_weight, ce_loss_weight = 2, 0.25, 0.75
inputs = torch.randn(8, 3, 16, 16).to(device)
labels = torch.randint(0, 10, (8,)).to(device)
teacher.eval()
student.train()
'''
CELL = '''
with torch.no_grad():
    teacher_logits = teacher(inputs)
    student_logits = student(inputs)
    soft_targets = nn.functional.softmax(teacher_logits / T, dim=-1)
    soft_prob = nn.functional.log_softmax(student_logits / T, dim=-1)
    soft_targets_loss = torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size()[0] * (T**2)
    label_loss = ce_loss(student_logits, labels)
    loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
