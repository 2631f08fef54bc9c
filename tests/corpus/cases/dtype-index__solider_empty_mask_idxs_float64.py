"""SOLIDER pre-training: when no image gets a semantic mask, the index array is an empty float64 array.

Source: https://github.com/tinyvision/SOLIDER/issues/12
`semantic_weight = [torch.cat(semantic_weight)[torch.from_numpy(mask_idxs)]] + ...` in
`train_one_epoch` raised "IndexError: tensors used as indices must be long, byte or bool tensors"
when resuming. A commenter: "the code is not finetunable when mask_ids is empty". `utils.get_mask`
ends with `mask_idxs = np.hstack(mask_idxs) if len(mask_idxs) > 0 else np.zeros(0)`: with no image
holding a large enough foreground the indices are `np.zeros(0)`, float64, so the tensor made from
them is a float index. Stand-in: `get_mask` with a threshold in place of its KMeans clustering.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch

def build_onehot_semantic_weight(dim, setVal=-1):
    if setVal == -1:
        w = torch.randint(2, (dim, 1)).float()
    elif setVal == 1:
        w = torch.ones(dim, 1)
    else:
        w = torch.zeros(dim, 1)
    return torch.cat([w, 1 - w], axis=-1)

def get_mask(features, clsnum):
    """utils.get_mask, reduced: a threshold in place of the KMeans foreground/part clustering."""
    n, c, h, w = features.shape
    masks, mask_idxs = [], []
    for i in range(n):
        fg = (features[i].norm(dim=0) > 1.0).flatten().numpy()
        idx = np.where(fg)[0]
        if len(idx) <= 0.5 * w * h:
            continue
        mask_idxs.append(i)
        res = np.zeros(h * w)
        res[idx] = 1 + (idx % clsnum)
        masks.append(res.reshape(h, w))
    masks = np.stack(masks) if len(mask_idxs) > 0 else np.zeros(0)
    mask_idxs = np.hstack(mask_idxs) if len(mask_idxs) > 0 else np.zeros(0)
    return masks, mask_idxs

batch_size_per_gpu = 4
teacher_feats = 0.1 * torch.rand(2 * batch_size_per_gpu, 8, 7, 7)   # no image has a large foreground
weight_unit = build_onehot_semantic_weight(batch_size_per_gpu, setVal=-1)
semantic_weight = [weight_unit, weight_unit]
mask, mask_idxs = get_mask(teacher_feats, 3)
'''
CELL = '''
semantic_weight = [torch.cat(semantic_weight)[torch.from_numpy(mask_idxs)]] \\
                + [weight_unit for _ in range(2 + 6)]
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["mask_idxs"]
FIX = "namespace"
REFERENCE_FIX = '''
mask_idxs = mask_idxs.astype(np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
