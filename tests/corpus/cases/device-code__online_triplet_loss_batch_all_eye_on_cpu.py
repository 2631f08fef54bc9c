"""`batch_all_triplet_loss` on cuda embeddings: `_get_triplet_mask` builds its identity mask with `torch.eye` on the CPU.

Source: https://github.com/NegatioN/OnlineMiningTripletLoss/issues/6
"Why is `device` argument not provided for the `batch_all_triplet_loss()` function as is done for
`batch_hard_triplet_loss(..., device='cpu')`? On giving cuda tensor to the `batch_all_triplet_loss()`
function a CUDA ERROR is thrown." `_get_triplet_mask(labels)` makes
`indices_equal = torch.eye(labels.size(0)).byte()` with no device and combines it with the label
masks of the cuda labels. The maintainer: "Even better is probably just to use the device-type of the
incoming tensor". Stand-in: the library's `batch_all_triplet_loss` and helpers, with its
boolean-mask assignments written as `clamp`, its triplet count as a masked sum and `~` as
`torch.bitwise_not` (the simulator has no data-dependent shapes and no `Tensor.__invert__`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def _pairwise_distances(embeddings, squared=False):
    dot_product = torch.matmul(embeddings, embeddings.t())
    square_norm = torch.diag(dot_product)
    distances = square_norm.unsqueeze(0) - 2.0 * dot_product + square_norm.unsqueeze(1)
    distances = distances.clamp(min=0)                      # distances[distances < 0] = 0
    if not squared:
        mask = distances.eq(0).float()
        distances = distances + mask * 1e-16
        distances = (1.0 - mask) * torch.sqrt(distances)
    return distances

def _get_triplet_mask(labels):
    # Check that i, j and k are distinct
    indices_equal = torch.eye(labels.size(0)).byte()
    indices_not_equal = torch.bitwise_not(indices_equal)         # ~indices_equal
    i_not_equal_j = indices_not_equal.unsqueeze(2)
    i_not_equal_k = indices_not_equal.unsqueeze(1)
    j_not_equal_k = indices_not_equal.unsqueeze(0)
    distinct_indices = (i_not_equal_j & i_not_equal_k) & j_not_equal_k

    label_equal = labels.unsqueeze(0) == labels.unsqueeze(1)
    i_equal_j = label_equal.unsqueeze(2)
    i_equal_k = label_equal.unsqueeze(1)
    valid_labels = torch.bitwise_not(i_equal_k) & i_equal_j     # ~i_equal_k & i_equal_j
    return valid_labels & distinct_indices

def batch_all_triplet_loss(labels, embeddings, margin, squared=False):
    pairwise_dist = _pairwise_distances(embeddings, squared=squared)
    anchor_positive_dist = pairwise_dist.unsqueeze(2)
    anchor_negative_dist = pairwise_dist.unsqueeze(1)
    triplet_loss = anchor_positive_dist - anchor_negative_dist + margin

    mask = _get_triplet_mask(labels)
    triplet_loss = mask.float() * triplet_loss
    triplet_loss = triplet_loss.clamp(min=0)                # triplet_loss[triplet_loss < 0] = 0
    num_positive_triplets = (triplet_loss > 1e-16).sum()    # triplet_loss[triplet_loss > 1e-16].size(0)
    num_valid_triplets = mask.sum()
    fraction_positive_triplets = num_positive_triplets / (num_valid_triplets.float() + 1e-16)
    triplet_loss = triplet_loss.sum() / (num_positive_triplets + 1e-16)
    return triplet_loss, fraction_positive_triplets

device = torch.device("cuda:0")
encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)).to(device)
images = torch.randn(12, 32, device=device)
labels = torch.randint(0, 4, (12,), device=device)
'''
CELL = '''
embeddings = encoder(images)
loss, fraction_positive = batch_all_triplet_loss(labels, embeddings, margin=0.2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["indices_equal"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "indices_equal = torch.eye(labels.size(0)).byte()",
    "indices_equal = torch.eye(labels.size(0), device=labels.device).byte()",
)
CLEAN = False
