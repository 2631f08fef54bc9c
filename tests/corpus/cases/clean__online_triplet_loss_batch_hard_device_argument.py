"""Look-alike: `batch_hard_triplet_loss(..., device=device)` on cuda embeddings; the library makes its identity mask on the CPU and moves it.

Source: https://github.com/NegatioN/OnlineMiningTripletLoss/issues/6
The report contrasts `batch_all_triplet_loss` with `batch_hard_triplet_loss(labels, embeddings,
margin, squared=False, device='cpu')`, whose `_get_anchor_positive_triplet_mask(labels, device)` does
`torch.eye(labels.size(0)).byte().to(device)`. Called with the embeddings' device, the CPU identity
is moved before it meets the cuda label mask. Nothing to report. Stand-in: the library's
`batch_hard_triplet_loss` and helpers, with its boolean-mask assignments written as `clamp` and `~`
as `torch.bitwise_not` (the simulator has no data-dependent shapes and no `Tensor.__invert__`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def _pairwise_distances(embeddings, squared=False):
    dot_product = torch.matmul(embeddings, embeddings.t())
    square_norm = torch.diag(dot_product)
    distances = square_norm.unsqueeze(0) - 2.0 * dot_product + square_norm.unsqueeze(1)
    distances = distances.clamp(min=0)
    if not squared:
        mask = distances.eq(0).float()
        distances = distances + mask * 1e-16
        distances = (1.0 - mask) * torch.sqrt(distances)
    return distances

def _get_anchor_positive_triplet_mask(labels, device):
    indices_equal = torch.eye(labels.size(0)).byte().to(device)
    indices_not_equal = torch.bitwise_not(indices_equal)
    labels_equal = labels.unsqueeze(0) == labels.unsqueeze(1)
    return labels_equal & indices_not_equal

def _get_anchor_negative_triplet_mask(labels):
    return torch.bitwise_not(labels.unsqueeze(0) == labels.unsqueeze(1))

def batch_hard_triplet_loss(labels, embeddings, margin, squared=False, device='cpu'):
    pairwise_dist = _pairwise_distances(embeddings, squared=squared)
    mask_anchor_positive = _get_anchor_positive_triplet_mask(labels, device).float()
    anchor_positive_dist = mask_anchor_positive * pairwise_dist
    hardest_positive_dist, _ = anchor_positive_dist.max(1, keepdim=True)
    mask_anchor_negative = _get_anchor_negative_triplet_mask(labels).float()
    max_anchor_negative_dist, _ = pairwise_dist.max(1, keepdim=True)
    anchor_negative_dist = pairwise_dist + max_anchor_negative_dist * (1.0 - mask_anchor_negative)
    hardest_negative_dist, _ = anchor_negative_dist.min(1, keepdim=True)
    tl = (hardest_positive_dist - hardest_negative_dist + margin).clamp(min=0)
    return tl.mean()

device = torch.device("cuda:0")
encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)).to(device)
images = torch.randn(12, 32, device=device)
labels = torch.randint(0, 4, (12,), device=device)
'''
CELL = '''
embeddings = encoder(images)
loss = batch_hard_triplet_loss(labels, embeddings, margin=0.2, device=device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
