"""Knowledge distillation: the student and the data are on the GPU, the teacher was never moved.

Source: https://github.com/HoyTta0/KnowledgeDistillation/issues/6
`student_train` calls `teacher_predict(X_train, ...)`, which runs the teacher loaded from its
checkpoint; the teacher stayed on the CPU while the student and the batches were on cuda, and
`outputs = model(...)` inside `teacher_predict` raised. The input is right; the teacher is not.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")

class TextClassifier(nn.Module):
    def __init__(self, dim=64, hidden=128, classes=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh())
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc(self.encoder(x))

def teacher_predict(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)

teacher = TextClassifier(hidden=256)  # loaded from its checkpoint, evaluation only
student = TextClassifier(hidden=32).to(device)
X_train = torch.randn(16, 64, device=device)
'''
CELL = '''
t_logits = teacher_predict(teacher, X_train)
s_logits = student(X_train)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["teacher"]
FIX = "namespace"
REFERENCE_FIX = '''
teacher.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
