"""MONAI GeneralizedWassersteinDiceLoss (0.2) with float label maps: the target is used as a `gather` index without a cast.

Source: https://github.com/Project-MONAI/MONAI/issues/826
"bug in GeneralizedWassersteinDiceLoss": "the forward() is missing `if not(target.type() in
[torch.LongTensor, torch.cuda.LongTensor]): target = target.long()` since the
wasserstein_distance_map expects flat_target to be a long integer type tensor ... otherwise it
throws an error". The segmentation labels came out of the MONAI loading transforms as float
tensors, as the other MONAI losses (DiceLoss) accept, and the loss gathers rows of the distance
matrix with them. Stand-in: the MONAI 0.2 loss reduced to its default (alpha) path, a small 3D
network, one batch of BraTS-like labels.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class GeneralizedWassersteinDiceLoss(nn.Module):
    """monai.losses.GeneralizedWassersteinDiceLoss, MONAI 0.2 (default weighting)."""
    def __init__(self, dist_matrix, reduction="mean"):
        super().__init__()
        if isinstance(dist_matrix, np.ndarray):
            dist_matrix = torch.from_numpy(dist_matrix)
        self.M = dist_matrix
        self.num_classes = self.M.size(0)
        self.reduction = reduction

    def forward(self, input, target):
        epsilon = np.spacing(1)
        flat_input = input.view(input.size(0), input.size(1), -1)   # b,c,s
        flat_target = target.view(target.size(0), -1)              # b,s
        probs = F.softmax(flat_input, dim=1)
        wass_dist_map = self.wasserstein_distance_map(probs, flat_target)
        alpha = torch.ones(flat_target.size(0), self.num_classes, dtype=torch.float)
        alpha[:, 0] = 0
        true_pos = self.compute_generalized_true_positive(alpha, flat_target, wass_dist_map)
        all_error = torch.sum(wass_dist_map, dim=1)
        denom = 2 * true_pos + all_error
        wass_dice = (2.0 * true_pos + epsilon) / (denom + epsilon)
        return (1.0 - wass_dice).mean()

    def wasserstein_distance_map(self, flat_proba, flat_target):
        M_extended = torch.unsqueeze(self.M, dim=0)                # C,C -> 1,C,C
        M_extended = torch.unsqueeze(M_extended, dim=3)            # 1,C,C -> 1,C,C,1
        M_extended = M_extended.expand((flat_proba.size(0), M_extended.size(1), M_extended.size(2), flat_proba.size(2)))
        flat_target_extended = torch.unsqueeze(flat_target, dim=1)  # b,s -> b,1,s
        flat_target_extended = flat_target_extended.expand((flat_target.size(0), M_extended.size(1), flat_target.size(1)))
        flat_target_extended = torch.unsqueeze(flat_target_extended, dim=1)  # b,c,s -> b,1,c,s
        M_extended = torch.gather(M_extended, dim=1, index=flat_target_extended)
        M_extended = torch.squeeze(M_extended, dim=1)
        wasserstein_map = M_extended * flat_proba
        return torch.sum(wasserstein_map, dim=1)

    def compute_generalized_true_positive(self, alpha, flat_target, wasserstein_distance_map):
        alpha_extended = torch.unsqueeze(alpha, dim=2)
        alpha_extended = alpha_extended.expand((flat_target.size(0), self.num_classes, flat_target.size(1)))
        flat_target_extended = torch.unsqueeze(flat_target, dim=1)
        alpha_extended = torch.gather(alpha_extended, index=flat_target_extended, dim=1)
        return torch.sum(alpha_extended * (1.0 - wasserstein_distance_map), dim=[1, 2])

# BraTS label space: background, necrotic core, edema, enhancing tumour
dist_mat = np.array([[0.0, 1.0, 1.0, 1.0],
                     [1.0, 0.0, 0.6, 0.2],
                     [1.0, 0.6, 0.0, 0.5],
                     [1.0, 0.2, 0.5, 0.0]], dtype=np.float32)
loss_function = GeneralizedWassersteinDiceLoss(dist_matrix=dist_mat)
model = nn.Sequential(nn.Conv3d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 4, 1))
optimizer = torch.optim.Adam(model.parameters(), 1e-4)
inputs = torch.randn(2, 4, 16, 16, 16)
# label volumes after LoadNiftid / AddChanneld / ToTensord: float32 class ids
labels = torch.randint(0, 4, (2, 1, 16, 16, 16)).float()
'''
CELL = '''
optimizer.zero_grad()
outputs = model(inputs)
loss = loss_function(outputs, labels)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("gather(): Expected dtype int32/int64 for index", "Expected dtype int64 for index",
                "Expected object of scalar type Long")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
