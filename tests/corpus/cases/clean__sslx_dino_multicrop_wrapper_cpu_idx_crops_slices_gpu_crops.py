"""Look-alike: DINO's MultiCropWrapper builds `idx_crops` as a CPU tensor and uses it to slice a list of GPU crops.

Source: https://github.com/facebookresearch/dino/blob/main/utils.py
`MultiCropWrapper.forward` groups the crops by resolution with
`torch.cumsum(torch.unique_consecutive(torch.tensor([inp.shape[-1] for inp in x]), return_counts=True)[1], 0)`:
a CPU tensor made without a device, next to crops and a backbone on the GPU. It is only ever used as
Python slice bounds over the list of crops (`x[start_idx: end_idx]`), never in a tensor op with them,
and the output accumulator is `torch.empty(0).to(x[0].device)`. Stand-in: the wrapper as in the repo
around a small patchify-and-project backbone and a linear head instead of the ViT and DINOHead; the
GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class MultiCropWrapper(nn.Module):
    def __init__(self, backbone, head):
        super(MultiCropWrapper, self).__init__()
        backbone.fc, backbone.head = nn.Identity(), nn.Identity()
        self.backbone = backbone
        self.head = head

    def forward(self, x):
        if not isinstance(x, list):
            x = [x]
        idx_crops = torch.cumsum(torch.unique_consecutive(
            torch.tensor([inp.shape[-1] for inp in x]),
            return_counts=True,
        )[1], 0)
        start_idx, output = 0, torch.empty(0).to(x[0].device)
        for end_idx in idx_crops:
            _out = self.backbone(torch.cat(x[start_idx: end_idx]))
            if isinstance(_out, tuple):
                _out = _out[0]
            output = torch.cat((output, _out))
            start_idx = end_idx
        return self.head(output)

class TinyViT(nn.Module):                      # vits.__dict__['vit_small'](patch_size=16) in main_dino.py
    def __init__(self, patch_size=16, embed_dim=64):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, patch_size, patch_size)
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, 1000)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        return self.head(self.norm(x).mean(dim=1))

device = torch.device("meta")                  # the GPU, simulated
student = MultiCropWrapper(TinyViT(), nn.Linear(64, 256)).to(device)
teacher = MultiCropWrapper(TinyViT(), nn.Linear(64, 256)).to(device)
teacher.load_state_dict(student.state_dict())
for p in teacher.parameters():
    p.requires_grad = False
# two 224px global crops and four 96px local crops, as the DataAugmentationDINO loader yields them
images = [torch.randn(4, 3, 224, 224) for _ in range(2)] + [torch.randn(4, 3, 96, 96) for _ in range(4)]
'''
CELL = '''
images = [im.to(device, non_blocking=True) for im in images]
teacher_output = teacher(images[:2])          # only the 2 global views pass through the teacher
student_output = student(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
