"""torchsparse's sparse_collate builds the batch-index column with torch.ones on the CPU while the coords are on the GPU.

Source: https://github.com/mit-han-lab/torchsparse/pull/54
"Fix for torch.cat failing in sparse_collate function when the coords parameter happens to be on
the gpu": `sparse_collate` appends the batch index to every point with
`torch.cat((coord, torch.ones(num_points, 1).int() * batch_id), 1)`; "by default, torch.ones
creates the tensor on the cpu. So, if the coord happens to be on gpu, the error occurs". The merged
fix creates the ones with `device=coord.device`. Stand-in: `torchsparse.utils.helpers.sparse_collate`
as it was before the PR (label and double-precision branches kept, numpy input kept); the point
clouds are voxelized LiDAR sweeps already on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

def sparse_collate(coords,
                   feats,
                   labels=None,
                   is_double=False,
                   coord_float=False):
    """Stand-in for torchsparse.utils.helpers.sparse_collate (before PR #54)."""
    use_label = False if labels is None else True
    coords_batch, feats_batch, labels_batch = [], [], []

    batch_id = 0
    for coord, feat in zip(coords, feats):
        if isinstance(coord, np.ndarray):
            coord = torch.from_numpy(coord)
        else:
            assert isinstance(
                coord, torch.Tensor
            ), "Coords must be of type numpy.ndarray or torch.Tensor"

        if not coord_float:
            coord = coord.int()
        else:
            coord = coord.float()

        if isinstance(feat, np.ndarray):
            feat = torch.from_numpy(feat)
        else:
            assert isinstance(
                feat, torch.Tensor
            ), "Features must be of type numpy.ndarray or torch.Tensor"
        feat = feat.double() if is_double else feat.float()

        # Batched coords
        num_points = coord.shape[0]

        if not coord_float:
            coords_batch.append(
                torch.cat((coord, torch.ones(num_points, 1).int() * batch_id),
                          1))
        else:
            coords_batch.append(
                torch.cat(
                    (coord, torch.ones(num_points, 1).float() * batch_id), 1))

        # Features
        feats_batch.append(feat)

        # Labels
        if use_label:
            label = labels[batch_id]
            if isinstance(label, np.ndarray):
                label = torch.from_numpy(label)
            labels_batch.append(label)

        batch_id += 1

    # Concatenate all lists
    if not coord_float:
        coords_batch = torch.cat(coords_batch, 0).int()
    else:
        coords_batch = torch.cat(coords_batch, 0).float()
    feats_batch = torch.cat(feats_batch, 0)
    if use_label:
        labels_batch = torch.cat(labels_batch, 0)
        return coords_batch, feats_batch, labels_batch
    else:
        return coords_batch, feats_batch

device = torch.device("cuda:0")
# two voxelized LiDAR sweeps (x, y, z voxel indices + intensity feature), already on the GPU
sweep_coords = [torch.randint(0, 200, (1200, 3), device=device),
                torch.randint(0, 200, (900, 3), device=device)]
sweep_feats = [torch.randn(1200, 4, device=device), torch.randn(900, 4, device=device)]
'''
CELL = '''
coords, feats = sparse_collate(sweep_coords, sweep_feats)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sparse_collate"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.ones(num_points, 1).int() * batch_id",
                  "torch.ones((num_points, 1), device=coord.device).int() * batch_id")
CLEAN = False
