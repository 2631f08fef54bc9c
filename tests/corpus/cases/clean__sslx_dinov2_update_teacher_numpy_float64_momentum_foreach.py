"""Look-alike: DINOv2 updates its teacher with `torch._foreach_mul_` by a NumPy float64 momentum from a schedule.

Source: https://github.com/facebookresearch/dinov2/blob/main/dinov2/train/ssl_meta_arch.py
The training loop reads `mom = momentum_schedule[iteration]` from a `CosineScheduler` whose schedule is a
float64 NumPy array, and `SSLMetaArch.update_teacher(mom)` applies it in place to the float32 teacher
parameters with `torch._foreach_mul_(teacher_param_list, m)` and
`torch._foreach_add_(teacher_param_list, student_param_list, alpha=1 - m)`. A float64 value in an in-place
update of float32 weights looks like a dtype problem, but a NumPy scalar is a Python number here and
the parameters keep their dtype. Stand-in: `CosineScheduler` as in dinov2/utils/utils.py and the
update over plain parameter lists (no FSDP) of small student/teacher backbone+head pairs.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import copy
import numpy as np
import torch
from torch import nn

class CosineScheduler(object):
    def __init__(self, base_value, final_value, total_iters, warmup_iters=0, start_warmup_value=0, freeze_iters=0):
        super().__init__()
        self.final_value = final_value
        self.total_iters = total_iters
        freeze_schedule = np.zeros((freeze_iters))
        warmup_schedule = np.linspace(start_warmup_value, base_value, warmup_iters)
        iters = np.arange(total_iters - warmup_iters - freeze_iters)
        schedule = final_value + 0.5 * (base_value - final_value) * (1 + np.cos(np.pi * iters / len(iters)))
        self.schedule = np.concatenate((freeze_schedule, warmup_schedule, schedule))
        assert len(self.schedule) == self.total_iters

    def __getitem__(self, it):
        if it >= self.total_iters:
            return self.final_value
        else:
            return self.schedule[it]

class SSLMetaArch(nn.Module):
    def __init__(self):
        super().__init__()
        student = dict(backbone=nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 64)),
                       dino_head=nn.Linear(64, 128))
        self.student = nn.ModuleDict(student)
        self.teacher = nn.ModuleDict({k: copy.deepcopy(v) for k, v in student.items()})
        for p in self.teacher.parameters():
            p.requires_grad = False

    def update_teacher(self, m):
        student_param_list = []
        teacher_param_list = []
        with torch.no_grad():
            for k in self.student.keys():
                student_param_list += list(self.student[k].parameters())     # ms.params of each FSDP module
                teacher_param_list += list(self.teacher[k].parameters())
            torch._foreach_mul_(teacher_param_list, m)
            torch._foreach_add_(teacher_param_list, student_param_list, alpha=1 - m)

model = SSLMetaArch()
momentum_schedule = CosineScheduler(base_value=0.992, final_value=1.0, total_iters=1250)
optimizer = torch.optim.AdamW(model.student.parameters(), lr=1e-3)
x = torch.randn(8, 32)
iteration = 10
'''
CELL = '''
mom = momentum_schedule[iteration]
loss = model.student["dino_head"](model.student["backbone"](x)).pow(2).mean()
optimizer.zero_grad(set_to_none=True)
loss.backward()
optimizer.step()
model.update_teacher(mom)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
