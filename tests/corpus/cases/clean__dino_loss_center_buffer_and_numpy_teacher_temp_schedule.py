"""Look-alike: the official DINO loss keeps its center as a registered buffer and divides by a numpy float64 temperature.

Source: https://github.com/facebookresearch/dino/blob/main/main_dino.py
`DINOLoss.__init__` does `self.register_buffer("center", torch.zeros(1, out_dim))` and builds
`self.teacher_temp_schedule` with `np.concatenate((np.linspace(...), np.ones(...) * teacher_temp))`;
`forward` divides the GPU teacher output by `self.teacher_temp_schedule[epoch]` (a numpy float64
scalar, which PyTorch treats as a Python number) and `update_center` rebinds `self.center` to a new
on-device tensor. `dino_loss = DINOLoss(...).cuda()` moves the buffer, and the crops come off the
loader on the CPU and are moved with `.cuda(non_blocking=True)`. Everything is float32 on cuda:0.
Stand-in: small student/teacher backbone+head pairs instead of the ViT and `MultiCropWrapper`,
crops of one resolution, no `dist.all_reduce`; `.cuda()` is written `.cuda("cuda:0")`, the current GPU
it resolves to (the simulator has no current device).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class DINOLoss(nn.Module):
    def __init__(self, out_dim, ncrops, warmup_teacher_temp, teacher_temp,
                 warmup_teacher_temp_epochs, nepochs, student_temp=0.1, center_momentum=0.9):
        super().__init__()
        self.student_temp = student_temp
        self.center_momentum = center_momentum
        self.ncrops = ncrops
        self.register_buffer("center", torch.zeros(1, out_dim))
        self.teacher_temp_schedule = np.concatenate((
            np.linspace(warmup_teacher_temp, teacher_temp, warmup_teacher_temp_epochs),
            np.ones(nepochs - warmup_teacher_temp_epochs) * teacher_temp
        ))

    def forward(self, student_output, teacher_output, epoch):
        student_out = student_output / self.student_temp
        student_out = student_out.chunk(self.ncrops)
        temp = self.teacher_temp_schedule[epoch]
        teacher_out = F.softmax((teacher_output - self.center) / temp, dim=-1)
        teacher_out = teacher_out.detach().chunk(2)
        total_loss = 0
        n_loss_terms = 0
        for iq, q in enumerate(teacher_out):
            for v in range(len(student_out)):
                if v == iq:
                    continue
                loss = torch.sum(-q * F.log_softmax(student_out[v], dim=-1), dim=-1)
                total_loss += loss.mean()
                n_loss_terms += 1
        total_loss /= n_loss_terms
        self.update_center(teacher_output)
        return total_loss

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = torch.sum(teacher_output, dim=0, keepdim=True)
        batch_center = batch_center / len(teacher_output)          # dist.all_reduce, world size 1
        self.center = self.center * self.center_momentum + batch_center * (1 - self.center_momentum)

class Wrapper(nn.Module):                                          # MultiCropWrapper(backbone, DINOHead)
    def __init__(self, out_dim=512):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 8, stride=8), nn.GELU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, out_dim))

    def forward(self, x):
        if not isinstance(x, list):
            x = [x]
        return self.head(torch.cat([self.backbone(inp) for inp in x]))

out_dim, local_crops_number, epochs = 512, 4, 100
student, teacher = Wrapper(out_dim), Wrapper(out_dim)
teacher.load_state_dict(student.state_dict())   # main_dino.py copies after .cuda(); the simulator cannot copy_
student, teacher = student.cuda("cuda:0"), teacher.cuda("cuda:0")   # .cuda()
for p in teacher.parameters():
    p.requires_grad = False
dino_loss = DINOLoss(out_dim, local_crops_number + 2, 0.04, 0.04, 30, epochs).cuda("cuda:0")   # .cuda()
images = [torch.randn(8, 3, 64, 64) for _ in range(local_crops_number + 2)]   # from the data loader
epoch = 3
'''
CELL = '''
images = [im.cuda("cuda:0", non_blocking=True) for im in images]
teacher_output = teacher(images[:2])
student_output = student(images)
loss = dino_loss(student_output, teacher_output, epoch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
