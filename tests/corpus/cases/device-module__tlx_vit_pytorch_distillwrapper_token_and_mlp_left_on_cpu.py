"""DeiT-style distillation with vit-pytorch's DistillWrapper: student and pretrained teacher moved to the GPU, the wrapper's own token and head not.

Source: https://github.com/lucidrains/vit-pytorch/pull/324
"Update distill.py to include device agnostic code for `distill_mlp` head and `distillation_token`":
training a DistillableViT student against a teacher CNN, the author moved the student ViT (and the
teacher) to the GPU and got a device-mismatch error that was "hard to figure out": "the
`distillation_token` and `distill_mlp` turned out to be the culprits as they are not defined in the
model class but in the `DistillWrapper` class", so sending the DistillableViT to the GPU leaves them
on the CPU; they have to go to the device too (the wrapper moved with the device, or the device
handled in its constructor). Stand-in: DistillableViT/DistillWrapper as in `vit_pytorch/distill.py`
with a small ViT (patch Linear, a single attention block) and a small pretrained-style ResNet teacher
in eval mode; forward and loss without backward (no autograd in this simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from torch.nn import Module
import torch.nn.functional as F

def exists(val):
    return val is not None

def default(val, d):
    return val if exists(val) else d

class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, dim * 3)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
        x = x + (q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5).softmax(-1) @ v
        return x + self.ff(x)

class ViT(nn.Module):
    def __init__(self, *, image_size, patch_size, num_classes, dim, depth, heads, mlp_dim,
                 pool='cls', dropout=0., emb_dropout=0.):
        super().__init__()
        self.patch_size = patch_size
        num_patches = (image_size // patch_size) ** 2
        self.patch_linear = nn.Linear(3 * patch_size * patch_size, dim)
        self.pos_embedding = nn.Parameter(torch.randn(num_patches + 1, dim))
        self.cls_token = nn.Parameter(torch.randn(1, dim))
        self.dropout = nn.Dropout(emb_dropout)
        self.transformer = nn.Sequential(*[Block(dim) for _ in range(depth)])
        self.pool = pool
        self.to_latent = nn.Identity()
        self.mlp_head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_classes))

    def to_patch_embedding(self, img):          # Rearrange('b c (h p1) (w p2) -> b (h w) (p1 p2 c)') + Linear
        p = self.patch_size
        b, c, h, w = img.shape
        x = img.reshape(b, c, h // p, p, w // p, p).permute(0, 2, 4, 3, 5, 1).reshape(b, (h // p) * (w // p), p * p * c)
        return self.patch_linear(x)

class DistillMixin:
    def forward(self, img, distill_token = None):
        distilling = exists(distill_token)
        x = self.to_patch_embedding(img)
        b, n, _ = x.shape
        cls_tokens = self.cls_token.unsqueeze(0).expand(b, -1, -1)      # repeat(..., 'n d -> b n d')
        x = torch.cat((cls_tokens, x), dim = 1)
        x += self.pos_embedding[:(n + 1)]
        if distilling:
            distill_tokens = distill_token.unsqueeze(0).expand(b, -1, -1)
            x = torch.cat((x, distill_tokens), dim = 1)
        x = self._attend(x)
        if distilling:
            x, distill_tokens = x[:, :-1], x[:, -1]
        x = x.mean(dim = 1) if self.pool == 'mean' else x[:, 0]
        x = self.to_latent(x)
        out = self.mlp_head(x)
        if distilling:
            return out, distill_tokens
        return out

class DistillableViT(DistillMixin, ViT):
    def __init__(self, *args, **kwargs):
        super(DistillableViT, self).__init__(*args, **kwargs)
        self.args = args
        self.kwargs = kwargs
        self.dim = kwargs['dim']
        self.num_classes = kwargs['num_classes']

    def _attend(self, x):
        x = self.dropout(x)
        x = self.transformer(x)
        return x

class DistillWrapper(Module):
    def __init__(self, *, teacher, student, temperature = 1., alpha = 0.5, hard = False, mlp_layernorm = False):
        super().__init__()
        self.teacher = teacher
        self.student = student
        dim = student.dim
        num_classes = student.num_classes
        self.temperature = temperature
        self.alpha = alpha
        self.hard = hard
        self.distillation_token = nn.Parameter(torch.randn(1, dim))
        self.distill_mlp = nn.Sequential(
            nn.LayerNorm(dim) if mlp_layernorm else nn.Identity(),
            nn.Linear(dim, num_classes)
        )

    def forward(self, img, labels, temperature = None, alpha = None, **kwargs):
        alpha = default(alpha, self.alpha)
        T = default(temperature, self.temperature)
        with torch.no_grad():
            teacher_logits = self.teacher(img)
        student_logits, distill_tokens = self.student(img, distill_token = self.distillation_token, **kwargs)
        distill_logits = self.distill_mlp(distill_tokens)
        loss = F.cross_entropy(student_logits, labels)
        if not self.hard:
            distill_loss = F.kl_div(
                F.log_softmax(distill_logits / T, dim = -1),
                F.softmax(teacher_logits / T, dim = -1).detach(),
            reduction = 'batchmean')
            distill_loss *= T ** 2
        else:
            teacher_labels = teacher_logits.argmax(dim = -1)
            distill_loss = F.cross_entropy(distill_logits, teacher_labels)
        return loss * (1 - alpha) + distill_loss * alpha

class ResNet(nn.Module):                        # torchvision resnet50(pretrained=True), reduced
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.avgpool(self.relu(self.bn1(self.conv1(x))))
        return self.fc(torch.flatten(x, 1))

device = torch.device("cuda:0")
teacher = ResNet(num_classes=10).to(device).eval()     # fine-tuned teacher
v = DistillableViT(image_size=32, patch_size=8, num_classes=10, dim=32, depth=2, heads=4,
                   mlp_dim=64, dropout=0.1, emb_dropout=0.1).to(device)
distiller = DistillWrapper(student=v, teacher=teacher, temperature=3, alpha=0.5, hard=False)
img = torch.randn(2, 3, 32, 32).to(device)
labels = torch.randint(0, 10, (2,)).to(device)
'''
CELL = '''
loss = distiller(img, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["distiller.distillation_token", "distiller.distill_mlp"]
FIX = "namespace"
REFERENCE_FIX = '''
distiller = distiller.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
