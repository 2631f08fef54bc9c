"""lightly 1.5.11 DINOLoss moved to the GPU, but the Center submodule's plain `center` tensor stays on the CPU.

Source: https://github.com/lightly-ai/lightly/issues/1630
With lightly 1.5.11 the user's DINO training failed in `DINOLoss.forward` at
`t_out = F.softmax((teacher_out - self._center.value) / teacher_temp, dim=-1)`: "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" (1.5.6 ran).
1.5.11 moved the centering into a `Center` submodule built with `_register_buffer=False`, so its
`center` is a plain attribute; DINOLoss registers the same tensor as its own buffer, and
`criterion.to(device)` replaces only that buffer, leaving `criterion._center.center` on the CPU
(fixed by #1629). Stand-in: `Center` and `DINOLoss` as in 1.5.11 (no distributed all-reduce), a
small student/teacher head pair instead of the user's ViT; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
from typing import List, Tuple
import copy
import torch
import torch.nn.functional as F
from torch import nn, Tensor
from torch.nn import Module

class Center(Module):
    def __init__(self, size: Tuple[int, ...], mode: str = "mean", momentum: float = 0.9,
                 _register_buffer: bool = True) -> None:
        super().__init__()
        self._center_fn = self._center_mean
        self.size = size
        self.dim = tuple(i for i, s in enumerate(size) if s == 1)
        center = torch.zeros(self.size)
        if _register_buffer:
            self.register_buffer("center", center)
        else:
            self.center = center
        self.momentum = momentum

    @property
    def value(self) -> Tensor:
        return self.center

    @torch.no_grad()
    def update(self, x: Tensor) -> None:
        batch_center = self._center_fn(x)
        self.center.copy_(self._center_momentum(batch_center))

    @torch.no_grad()
    def _center_mean(self, x: Tensor) -> Tensor:
        return torch.mean(x, dim=self.dim, keepdim=True)

    @torch.no_grad()
    def _center_momentum(self, batch_center: Tensor) -> Tensor:
        return self.center * self.momentum + batch_center * (1 - self.momentum)

class DINOLoss(Module):
    def __init__(self, output_dim: int = 65536, warmup_teacher_temp: float = 0.04,
                 teacher_temp: float = 0.04, warmup_teacher_temp_epochs: int = 30,
                 student_temp: float = 0.1, center_momentum: float = 0.9, center_mode: str = "mean"):
        super().__init__()
        self.warmup_teacher_temp_epochs = warmup_teacher_temp_epochs
        self.teacher_temp = teacher_temp
        self.student_temp = student_temp
        self._center = Center(size=(1, 1, output_dim), mode=center_mode,
                              momentum=center_momentum, _register_buffer=False)
        self.register_buffer("center", self._center.center)
        self.teacher_temp_schedule = torch.linspace(
            start=warmup_teacher_temp, end=teacher_temp, steps=warmup_teacher_temp_epochs)

    def forward(self, teacher_out: List[Tensor], student_out: List[Tensor], epoch: int) -> Tensor:
        if epoch < self.warmup_teacher_temp_epochs:
            teacher_temp = self.teacher_temp_schedule[epoch]
        else:
            teacher_temp = self.teacher_temp
        teacher_out = torch.stack(teacher_out)
        t_out = F.softmax((teacher_out - self._center.value) / teacher_temp, dim=-1)
        student_out = torch.stack(student_out)
        s_out = F.log_softmax(student_out / self.student_temp, dim=-1)
        loss = -torch.einsum("tbd,sbd->ts", t_out, s_out)
        loss.fill_diagonal_(0)
        n_terms = loss.numel() - loss.diagonal().numel()
        batch_size = teacher_out.shape[1]
        loss = loss.sum() / (n_terms * batch_size)
        self.update_center(teacher_out)
        return loss

    @torch.no_grad()
    def update_center(self, teacher_out: Tensor) -> None:
        self._center.update(teacher_out)

class DINO(nn.Module):
    def __init__(self, input_dim=64, output_dim=256):
        super().__init__()
        self.student_backbone = nn.Sequential(nn.Linear(input_dim, 128), nn.GELU())
        self.student_head = nn.Linear(128, output_dim)
        self.teacher_backbone = copy.deepcopy(self.student_backbone)
        self.teacher_head = copy.deepcopy(self.student_head)

    def forward(self, x):
        return self.student_head(self.student_backbone(x))

    def forward_teacher(self, x):
        return self.teacher_head(self.teacher_backbone(x))

device = "meta"   # the GPU, simulated with meta
model = DINO()
model.to(device)
criterion = DINOLoss(output_dim=256, warmup_teacher_temp_epochs=5)
criterion = criterion.to(device)
views = [torch.randn(16, 64) for _ in range(4)]   # two global + two local crops from the loader
epoch = 0
'''
CELL = '''
views = [view.to(device) for view in views]
global_views = views[:2]
teacher_out = [model.forward_teacher(view) for view in global_views]
student_out = [model.forward(view) for view in views]
loss = criterion(teacher_out, student_out, epoch=epoch)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["criterion._center"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion._center.center = criterion._center.center.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
