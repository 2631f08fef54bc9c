"""lightly SwaVLoss on a GPU: the multi-crop loss accumulators are created on the CPU.

Source: https://github.com/lightly-ai/lightly/issues/1884
"SwaV mismatched device": the user adapted lightly's SwaV benchmark to their data and every
training step died in `loss = self.criterion(high_resolution_features, low_resolution_features)`
at swav_loss.py line 186, `subloss += self.subloss(high_resolution_outputs[v], q)`, with
"Expected all tensors to be on the same device, but found at least two devices, cuda:2 and cpu!".
`SwaVLoss.forward` starts `loss = torch.tensor(0.0)` and `subloss = torch.tensor(0.0)` on the CPU and
adds the per-crop cross entropies (on the GPU) into them in place. The user changed those lines to
create the accumulators on the outputs' device; lightly's fix (PR #1858) uses
`high_resolution_outputs[i].new_zeros(1)` for both.
Stand-ins: lightly's `sinkhorn`, `SwaVLoss` (queue branch dropped), `SwaVProjectionHead` and
`SwaVPrototypes` reduced to linear layers; a tiny conv backbone instead of a ResNet.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

@torch.no_grad()
def sinkhorn(out, iterations=3, epsilon=0.05, gather_distributed=False):
    """Stand-in for lightly.loss.swav_loss.sinkhorn (single process)."""
    Q = torch.exp(out / epsilon).t()
    Q /= torch.sum(Q)
    B = Q.shape[1]
    for _ in range(iterations):
        Q /= torch.sum(Q, dim=1, keepdim=True)
        Q /= torch.sum(Q, dim=0, keepdim=True)
        Q /= B
    Q *= B
    return Q.t()

class SwaVLoss(nn.Module):
    """Stand-in for lightly.loss.SwaVLoss (lightly <= 1.5.21, queue branch dropped)."""
    def __init__(self, temperature=0.1, sinkhorn_iterations=3, sinkhorn_epsilon=0.05,
                 sinkhorn_gather_distributed=False):
        super().__init__()
        self.temperature = temperature
        self.sinkhorn_iterations = sinkhorn_iterations
        self.sinkhorn_epsilon = sinkhorn_epsilon
        self.sinkhorn_gather_distributed = sinkhorn_gather_distributed

    def subloss(self, z, q):
        return -torch.mean(torch.sum(q * F.log_softmax(z / self.temperature, dim=1), dim=1))

    def forward(self, high_resolution_outputs, low_resolution_outputs, queue_outputs=None):
        n_crops = len(high_resolution_outputs) + len(low_resolution_outputs)

        # Multi-crop iterations
        loss = torch.tensor(0.0)
        for i in range(len(high_resolution_outputs)):
            with torch.no_grad():
                outputs = high_resolution_outputs[i].detach()
                q = sinkhorn(outputs, iterations=self.sinkhorn_iterations,
                             epsilon=self.sinkhorn_epsilon,
                             gather_distributed=self.sinkhorn_gather_distributed)

            # Compute subloss for each pair of crops
            subloss = torch.tensor(0.0)
            for v in range(len(high_resolution_outputs)):
                if v != i:
                    subloss += self.subloss(high_resolution_outputs[v], q)

            for v in range(len(low_resolution_outputs)):
                subloss += self.subloss(low_resolution_outputs[v], q)

            loss += subloss / (n_crops - 1)

        return loss / len(high_resolution_outputs)

class SwaVProjectionHead(nn.Module):
    def __init__(self, input_dim=64, hidden_dim=64, output_dim=32):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(input_dim, hidden_dim), nn.BatchNorm1d(hidden_dim),
                                    nn.ReLU(), nn.Linear(hidden_dim, output_dim))

    def forward(self, x):
        return self.layers(x)

class SwaVPrototypes(nn.Module):
    def __init__(self, input_dim=32, n_prototypes=16):
        super().__init__()
        self.layers = nn.Linear(input_dim, n_prototypes, bias=False)

    def forward(self, x):
        return self.layers(x)

class SwaV(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.projection_head = SwaVProjectionHead(64, 64, 32)
        self.prototypes = SwaVPrototypes(32, n_prototypes=16)

    def forward(self, x):
        x = self.backbone(x).flatten(start_dim=1)
        x = self.projection_head(x)
        x = nn.functional.normalize(x, dim=1, p=2)
        return self.prototypes(x)

device = torch.device("cuda:0")
backbone = nn.Sequential(nn.Conv2d(3, 64, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
model = SwaV(backbone).to(device).eval()
criterion = SwaVLoss()
# 2 high-resolution and 4 low-resolution crops from the multi-crop transform (dataloader, cpu)
views = [torch.randn(8, 3, 32, 32) for _ in range(2)] + [torch.randn(8, 3, 16, 16) for _ in range(4)]
'''
CELL = '''
views = [view.to(device) for view in views]
multi_crop_features = [model(view) for view in views]
high_resolution_features = multi_crop_features[:2]
low_resolution_features = multi_crop_features[2:]
loss = criterion(high_resolution_features, low_resolution_features)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "wrapped to wrong device")
CULPRITS = ["criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        loss = torch.tensor(0.0)
        for i in range(len(high_resolution_outputs)):
            with torch.no_grad():
                outputs = high_resolution_outputs[i].detach()
                q = sinkhorn(outputs, iterations=self.sinkhorn_iterations,
                             epsilon=self.sinkhorn_epsilon,
                             gather_distributed=self.sinkhorn_gather_distributed)

            # Compute subloss for each pair of crops
            subloss = torch.tensor(0.0)''',
                  '''        loss = high_resolution_outputs[0].new_zeros(1)
        for i in range(len(high_resolution_outputs)):
            with torch.no_grad():
                outputs = high_resolution_outputs[i].detach()
                q = sinkhorn(outputs, iterations=self.sinkhorn_iterations,
                             epsilon=self.sinkhorn_epsilon,
                             gather_distributed=self.sinkhorn_gather_distributed)

            # Compute subloss for each pair of crops
            subloss = high_resolution_outputs[i].new_zeros(1)''')
CLEAN = False
