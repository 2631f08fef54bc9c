"""alphafold2-pytorch MDS on GPU distograms: the stress history starts with a CPU tensor.

Source: https://github.com/lucidrains/alphafold2/pull/60
`mds_torch` (distance matrix -> 3D coordinates, used to turn the predicted distogram into a backbone)
read `device` from `pre_dist_mat` and built every buffer there except the first entry of the stress
history, `his = [torch.tensor([np.inf]*batch)]`. With GPU distances the later
`torch.stack(his)` mixes that CPU tensor with the GPU stresses ("fix mds tensors not in same
device"); the merged fix creates it with `device=device`.
Stand-in: the same function with its `B[:, i, i] += ...` diagonal update written with `diag_embed`,
`dist_mat[dist_mat <= 0] += 1e-7` written with `torch.where`, and the early-stopping tolerance test
left out, and `.type(pre_dist_mat.type())` written `.to(pre_dist_mat.dtype)` (the simulator cannot
index fake GPU tensors, turn them into Python bools or cast them by CUDA type name).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

def mds_torch(pre_dist_mat, weights=None, iters=10, tol=1e-5, verbose=2):
    """ Gets distance matrix. Outputs 3d. """
    device, dtype = pre_dist_mat.device, pre_dist_mat.dtype

    if weights is None:
        weights = torch.ones_like(pre_dist_mat)

    # start
    batch, N, _ = pre_dist_mat.shape
    his = [torch.tensor([np.inf]*batch)]
    # init random coords
    best_stress = float("Inf") * torch.ones(batch, device = device).to(dtype)
    best_3d_coords = 2*torch.rand(batch, N, 3, device = device).to(dtype) - 1
    # iterative updates:
    for i in range(iters):
        # compute distance matrix of coords and stress
        dist_mat = torch.cdist(best_3d_coords, best_3d_coords, p=2).clone()
        stress   = ( weights * (dist_mat - pre_dist_mat)**2 ).sum(dim=(-1,-2)) * 0.5
        # perturb - update X using the Guttman transform - sklearn-like
        dist_mat = torch.where(dist_mat <= 0, dist_mat + 1e-7, dist_mat)
        ratio = weights * (pre_dist_mat / dist_mat)
        B = -ratio + torch.diag_embed(ratio.sum(dim=-1))

        # update
        coords = (1. / N * torch.matmul(B, best_3d_coords))
        dis = torch.norm(coords, dim=(-1, -2))
        best_3d_coords = coords
        his.append( stress / dis )

    return torch.transpose(best_3d_coords, -1,-2), torch.stack(his)

device = torch.device("cuda:0")
N = 64
true_coords = torch.randn(1, N, 3) * 10
distances = torch.cdist(true_coords, true_coords).to(device)     # predicted distogram, centred
weights = torch.ones(1, N, N, device=device)
'''
CELL = '''
coords_3d, stress_history = mds_torch(distances, weights=weights, iters=5, verbose=0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mds_torch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("his = [torch.tensor([np.inf]*batch)]",
                  "his = [torch.tensor([np.inf]*batch, device=device)]")
CLEAN = False
