"""timm ConvNeXt moved to the GPU, then `reset_classifier(5)` for fine-tuning: the new head `fc` is built on the CPU.

Source: https://github.com/huggingface/pytorch-image-models/pull/2752
"Fix device / dtype change for all classifier resets": the shared heads' `reset()` (e.g.
`NormMlpClassifierHead.reset`) and model `reset_classifier` methods created replacement layers with
PyTorch's defaults, so calling `reset_classifier` after `model.to(device)` left the new classifier on the
CPU beside a GPU backbone. The merged fix passes the existing parameters' device/dtype to the new
layers. Stand-in: a two-stage ConvNeXt-like backbone with timm's NormMlpClassifierHead (pool, norm,
flatten, fc) and its reset; the GPU is simulated (fake cuda:0).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = nn.functional.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)

class NormMlpClassifierHead(nn.Module):
    def __init__(self, in_features, num_classes, pool_type='avg', drop_rate=0.):
        super().__init__()
        self.in_features = in_features
        self.num_features = in_features
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.norm = LayerNorm2d(in_features)
        self.flatten = nn.Flatten(1)
        self.drop = nn.Dropout(drop_rate)
        self.fc = nn.Linear(self.num_features, num_classes) if num_classes > 0 else nn.Identity()

    def reset(self, num_classes, pool_type=None):
        self.fc = nn.Linear(self.num_features, num_classes) if num_classes > 0 else nn.Identity()

    def forward(self, x, pre_logits=False):
        x = self.global_pool(x)
        x = self.norm(x)
        x = self.flatten(x)
        x = self.drop(x)
        return x if pre_logits else self.fc(x)

class ConvNeXt(nn.Module):
    def __init__(self, num_classes=1000, dims=(16, 32)):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, dims[0], 4, 4), LayerNorm2d(dims[0]))
        self.stages = nn.Sequential(nn.Conv2d(dims[0], dims[0], 3, padding=1), nn.GELU(),
                                    nn.Conv2d(dims[0], dims[1], 2, 2))
        self.head = NormMlpClassifierHead(dims[1], num_classes)

    def reset_classifier(self, num_classes, global_pool=None):
        self.head.reset(num_classes, global_pool)

    def forward(self, x):
        return self.head(self.stages(self.stem(x)))

device = torch.device("cuda:0")
model = ConvNeXt()              # timm.create_model('convnext_tiny', pretrained=True)
model = model.to(device)
model.reset_classifier(5)       # new 5-class head for the downstream dataset
model.eval()
images = torch.randn(4, 3, 32, 32).to(device)
'''
CELL = '''
with torch.no_grad():
    logits = model(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.head.fc"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
