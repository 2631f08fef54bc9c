"""SupContrast `SupConLoss`: label masks and the self-contrast mask are built on the CPU and moved to the features' device.

Source: https://github.com/HobbitLong/SupContrast/blob/master/losses.py
The loss picks `device` from `features`, builds `mask = torch.eq(labels, labels.T).float().to(device)`
and `logits_mask` by scattering a CPU `torch.arange(batch_size * anchor_count).view(-1, 1).to(device)`.
So `labels` may come straight from the CPU loader while the projected features are on the GPU.
Look-alike: CPU labels and CPU-built index tensors beside CUDA features, all moved inside the loss.
Stand-in: `device` is taken as `features.device` (the repo writes `torch.device('cuda')` when
`features.is_cuda`); a linear projection head in place of the ResNet encoder.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class SupConLoss(nn.Module):
    def __init__(self, temperature=0.07, contrast_mode='all', base_temperature=0.07):
        super().__init__()
        self.temperature = temperature
        self.contrast_mode = contrast_mode
        self.base_temperature = base_temperature

    def forward(self, features, labels=None, mask=None):
        device = features.device if features.is_cuda else torch.device('cpu')
        batch_size = features.shape[0]
        labels = labels.contiguous().view(-1, 1)
        mask = torch.eq(labels, labels.T).float().to(device)
        contrast_count = features.shape[1]
        contrast_feature = torch.cat(torch.unbind(features, dim=1), dim=0)
        anchor_feature = contrast_feature
        anchor_count = contrast_count
        anchor_dot_contrast = torch.div(torch.matmul(anchor_feature, contrast_feature.T), self.temperature)
        logits_max, _ = torch.max(anchor_dot_contrast, dim=1, keepdim=True)
        logits = anchor_dot_contrast - logits_max.detach()
        mask = mask.repeat(anchor_count, contrast_count)
        logits_mask = torch.scatter(
            torch.ones_like(mask), 1,
            torch.arange(batch_size * anchor_count).view(-1, 1).to(device), 0)
        mask = mask * logits_mask
        exp_logits = torch.exp(logits) * logits_mask
        log_prob = logits - torch.log(exp_logits.sum(1, keepdim=True))
        mask_pos_pairs = mask.sum(1)
        mask_pos_pairs = torch.where(mask_pos_pairs < 1e-6, 1, mask_pos_pairs)
        mean_log_prob_pos = (mask * log_prob).sum(1) / mask_pos_pairs
        loss = - (self.temperature / self.base_temperature) * mean_log_prob_pos
        return loss.view(anchor_count, batch_size).mean()

head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 16)).to("cuda:0")
criterion = SupConLoss(temperature=0.1)
images = torch.randn(2 * 8, 32, device="cuda:0")     # two augmented views, already on the GPU
labels = torch.randint(0, 4, (8,))                    # straight from the CPU loader
bsz = labels.shape[0]
'''
CELL = '''
with torch.no_grad():
    features = F.normalize(head(images), dim=1)
    f1, f2 = torch.split(features, [bsz, bsz], dim=0)
    features = torch.cat([f1.unsqueeze(1), f2.unsqueeze(1)], dim=1)
    loss = criterion(features, labels)
print(loss.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
