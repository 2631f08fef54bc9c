"""Look-alike: easyfsl measures a GPU backbone's feature size with a CPU dummy batch, on a CPU deep copy of the backbone.

Source: https://github.com/sicara/easy-few-shot-learning/blob/master/easyfsl/utils.py
`compute_backbone_output_shape(backbone)` builds `input_images = torch.ones((4, 3, 32, 32))` on the CPU
while the (pretrained, fine-tuned) backbone already sits on the GPU, and runs
`copy.deepcopy(backbone).cpu()(input_images)` ("Use a copy of the backbone on CPU, to avoid device
conflict"). A CPU tensor fed to a model that lives on the GPU is the usual bug; here the copy is on the
CPU and the original backbone is untouched, so the few-shot episode afterwards runs on the GPU. Stand-in:
a small ResNet-like backbone (torchvision resnet18 with `fc = nn.Flatten()` in the easyfsl notebooks) in
eval mode, prototypes as a per-class mean over a label-sorted support set; GPU simulated (fake cuda:0).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn, Tensor

def compute_backbone_output_shape(backbone: nn.Module) -> torch.Size:
    input_images = torch.ones((4, 3, 32, 32))
    # Use a copy of the backbone on CPU, to avoid device conflict
    output = copy.deepcopy(backbone).cpu()(input_images)
    return output.shape[1:]

def compute_prototypes(support_features: Tensor, n_way: int) -> Tensor:
    # support set sorted by label (stand-in for easyfsl's mask-indexed mean, which fake cuda cannot run)
    return support_features.view(n_way, -1, support_features.shape[-1]).mean(1)

class ResNetBackbone(nn.Module):                  # resnet18(weights=...), fc = nn.Flatten()
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Flatten()

    def forward(self, x):
        return self.fc(self.avgpool(self.relu(self.bn1(self.conv1(x)))))

DEVICE = "cuda:0"
backbone = ResNetBackbone().to(DEVICE).eval()
support_images = torch.randn(10, 3, 32, 32)
support_labels = torch.arange(5).repeat_interleave(2)
query_images = torch.randn(6, 3, 32, 32)
'''
CELL = '''
feature_dimension = compute_backbone_output_shape(backbone)
with torch.no_grad():
    support_features = backbone(support_images.to(DEVICE))
    prototypes = compute_prototypes(support_features, n_way=5)
    query_features = backbone(query_images.to(DEVICE))
    scores = -torch.cdist(query_features, prototypes)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
