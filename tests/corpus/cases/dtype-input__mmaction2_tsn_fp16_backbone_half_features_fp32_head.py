"""mmaction2 TSN with `fp16 = dict(loss_scale='dynamic')`: the auto_fp16 backbone hands half features to a head that is not fp16-aware.

Source: https://github.com/open-mmlab/mmaction2/issues/1993
Training TSN with `fp16=dict(loss_scale='dynamic')` failed in the head: `return F.linear(input,
self.weight, self.bias)` raised "expected scalar type Float but found Half" (the same report for
SlowOnly, at `I3DHead.fc_cls`, is issue #1315). mmcv's `@auto_fp16()` on the recognizer/backbone
casts the clips to half and runs them under autocast, so the pooled features come out fp16, while
the classification head has no `@auto_fp16`/`force_fp32` and keeps fp32 weights. The user cast the
head input with `x.float()`; the maintainers: fp16 is not supported for it. Stand-in: mmcv's
auto_fp16 (CPU autocast in float16 plays CUDA autocast), a small 2D backbone and TSNHead.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import functools
import torch
from torch import nn
import torch.nn.functional as F

def auto_fp16(apply_to=None, out_fp32=False):
    def auto_fp16_wrapper(old_func):
        @functools.wraps(old_func)
        def new_func(self, *args, **kwargs):
            if not getattr(self, 'fp16_enabled', False):
                return old_func(self, *args, **kwargs)
            new_args = [a.half() if isinstance(a, torch.Tensor) and a.is_floating_point() else a for a in args]
            with torch.autocast(device_type='cpu', dtype=torch.float16):
                output = old_func(self, *new_args, **kwargs)
            if out_fp32:
                output = output.float()
            return output
        return new_func
    return auto_fp16_wrapper

class ResNetStub(nn.Module):
    def __init__(self):
        super().__init__()
        self.fp16_enabled = False
        self.conv1 = nn.Conv2d(3, 32, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        self.layer1 = nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU())

    @auto_fp16()
    def forward(self, x):
        return self.layer1(F.relu(self.bn1(self.conv1(x))))

class TSNHead(nn.Module):
    def __init__(self, num_classes, in_channels, num_segs=3, dropout_ratio=0.4):
        super().__init__()
        self.num_segs = num_segs
        self.avg_pool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=dropout_ratio)
        self.fc_cls = nn.Linear(in_channels, num_classes)

    def forward(self, x, num_segs):
        x = self.avg_pool(x)
        x = x.reshape((-1, num_segs) + x.shape[1:])
        x = x.mean(dim=1)  # AvgConsensus
        x = x.squeeze(1)
        x = self.dropout(x)
        x = x.view(x.size(0), -1)
        cls_score = self.fc_cls(x)
        return cls_score

    def loss(self, cls_score, labels):
        return dict(loss_cls=F.cross_entropy(cls_score, labels))

class Recognizer2D(nn.Module):
    def __init__(self, backbone, cls_head):
        super().__init__()
        self.backbone = backbone
        self.cls_head = cls_head
        self.fp16_enabled = False

    def forward_train(self, imgs, labels):
        batches = imgs.shape[0]
        imgs = imgs.reshape((-1, ) + imgs.shape[2:])
        num_segs = imgs.shape[0] // batches
        x = self.backbone(imgs)
        cls_score = self.cls_head(x, num_segs)
        return self.cls_head.loss(cls_score, labels.squeeze())

def wrap_fp16_model(model):
    # torch >= 1.6: no model.half(); the auto_fp16 decorators cast and run under autocast
    for m in model.modules():
        if hasattr(m, 'fp16_enabled'):
            m.fp16_enabled = True

fp16 = dict(loss_scale='dynamic')
model = Recognizer2D(ResNetStub(), TSNHead(num_classes=10, in_channels=64, num_segs=3))
if fp16 is not None:
    wrap_fp16_model(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
data_batch = dict(imgs=torch.randn(4, 3, 3, 64, 64), label=torch.randint(0, 10, (4, 1)))
'''
CELL = '''
losses = model.forward_train(data_batch['imgs'], data_batch['label'])
losses['loss_cls'].backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Float but found Half", "mat1 and mat2 must have the same dtype",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["model.cls_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        x = x.view(x.size(0), -1)\n        cls_score = self.fc_cls(x)",
    "        x = x.view(x.size(0), -1)\n        cls_score = self.fc_cls(x.float())",
)
CLEAN = False
