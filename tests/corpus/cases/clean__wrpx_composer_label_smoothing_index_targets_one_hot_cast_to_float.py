"""Look-alike: Composer label smoothing receives int64 class indices next to float32 logits; `ensure_targets_one_hot` builds the one-hot in the targets' integer dtype and returns `.float()`.

Source: https://github.com/mosaicml/composer/blob/6405188805a0054b4551ec49e4919c54c971d0e8/composer/loss/utils.py
`smooth_labels` (composer/algorithms/label_smoothing/label_smoothing.py) calls
`ensure_targets_one_hot(logits, target)`; for index targets `_one_hot` makes
`torch.zeros(..., dtype=tensor.dtype)` (an int64 one-hot) and `scatter_(dim=dim, index=tensor, value=1)`,
and `ensure_targets_one_hot` ends with `return targets.float()`;
`soft_cross_entropy` (composer/loss/loss.py) then takes the dense float path
`-(target * F.log_softmax(input, dim=1))`. Integer labels and float logits, cast on purpose: nothing
to report. Copied from composer (negative-index branch and warnings kept short).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def infer_target_type(input, targets):
    if input.shape == targets.shape:
        return 'one_hot'
    elif input.ndim == targets.ndim + 1:
        return 'indices'
    else:
        raise RuntimeError('Unable to infer indices or one_hot.')

def check_for_index_targets(targets):
    index_dtypes = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
    return targets.dtype in index_dtypes

def _one_hot(tensor, num_classes=-1, dim=-1):
    if not check_for_index_targets(tensor):
        raise ValueError(f'tensor must be integer type, current type: {tensor.dtype}')
    max_index = tensor.max() + 1
    if num_classes == -1:
        num_classes = int(max_index)
    if num_classes < max_index:
        raise ValueError('num_classes must be greater than or equal to tensor.max() + 1')
    neg_indices = tensor.min() < 0
    if neg_indices:
        tensor = tensor.clone().long()
        tensor[tensor < 0] = num_classes
        num_classes += 1
    tensor = tensor.unsqueeze(dim)
    tensor_shape = list(tensor.shape)
    tensor_shape[dim] = num_classes
    one_hot_tensor = torch.zeros(size=tensor_shape, dtype=tensor.dtype, device=tensor.device)
    one_hot_tensor.scatter_(dim=dim, index=tensor, value=1)
    if neg_indices:
        one_hot_tensor = one_hot_tensor[:, 0:-1]
    return one_hot_tensor

def ensure_targets_one_hot(input, targets, num_classes=None):
    if infer_target_type(input, targets) == 'indices':
        if num_classes is None:
            num_classes = input.shape[1]
        targets = _one_hot(targets, num_classes=num_classes, dim=1)
    return targets.float()

def smooth_labels(logits, target, smoothing=0.1):
    target = ensure_targets_one_hot(logits, target)
    n_classes = logits.shape[1]
    return (target * (1. - smoothing)) + (smoothing / n_classes)

def soft_cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean'):
    target_type = infer_target_type(input, target)
    if target_type == 'indices':
        return F.cross_entropy(input=input, target=target, weight=weight,
                               ignore_index=ignore_index, reduction=reduction)
    xentropy = -(target * F.log_softmax(input, dim=1))
    xentropy = xentropy.sum(dim=1)
    num_examples = torch.numel(xentropy)
    if reduction == 'sum':
        xentropy = xentropy.sum()
    elif reduction == 'mean':
        xentropy = xentropy.mean()
        total_prob = target.sum()
        if total_prob < num_examples:
            pass
        xentropy *= num_examples / total_prob
    return xentropy

model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 5))
X = torch.from_numpy(np.random.randn(16, 12).astype(np.float32))
targets = torch.from_numpy(np.random.randint(0, 5, size=16).astype(np.int64))   # class indices
'''
CELL = '''
logits = model(X)
smoothed_targets = smooth_labels(logits, targets, smoothing=0.1)
loss = soft_cross_entropy(logits, smoothed_targets)
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
