"""MMRazor distillation in fp16: the student is half, the feature `align_module` added by the distiller is float32.

Source: https://github.com/open-mmlab/mmrazor/issues/190
"when student and teacher network training in fp16, if align_module is none, training works well.
but if i set align_module, the align_module's weight is fp32, but the student's outputs are fp16,
it will crash". Stand-in: a student and a teacher backbone cast to half (the fp16 wrapper), a
single-teacher distiller that builds its 1x1 conv `align_module` after that cast, and the
feature-distillation loss on the recorded student/teacher features; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Backbone(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.layer = nn.Conv2d(width, width, 3, padding=1)

    def forward(self, x):
        return self.layer(torch.relu(self.stem(x)))

student = Backbone(8).half()        # fp16 = dict(loss_scale=512.): model converted to half
teacher = Backbone(16).half()
teacher.eval()

class SingleTeacherDistiller(nn.Module):
    def __init__(self, student_channels, teacher_channels):
        super().__init__()
        self.align_module = nn.Conv2d(student_channels, teacher_channels, 1)   # connector

    def compute_distill_loss(self, s_feat, t_feat):
        return F.mse_loss(self.align_module(s_feat), t_feat)

distiller = SingleTeacherDistiller(8, 16)
img = torch.randn(2, 3, 16, 16).half()
with torch.no_grad():
    s_feat = student(img)
    t_feat = teacher(img)
'''
CELL = '''
loss_distill = distiller.compute_distill_loss(s_feat, t_feat)
'''
EXPECT_ERROR = ("expected scalar type", "should be the same")
CULPRITS = ["distiller.align_module"]
FIX = "namespace"
REFERENCE_FIX = '''
distiller.half()
'''
REFERENCE_EDIT = None
CLEAN = False
