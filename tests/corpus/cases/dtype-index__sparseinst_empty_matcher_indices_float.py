"""SparseInst's matcher returns float index tensors for images without instances.

Source: https://github.com/hustvl/SparseInst/issues/22
Training on a custom dataset intermittently failed in `loss_labels` at
`[t["labels"][J] for t, (_, J) in zip(targets, indices)]` with "tensors used as indices must be
long, byte or bool tensors"; commenters traced it to images with zero instances, where the matcher
returns empty index tensors built with `torch.as_tensor([])` - float32. Stand-in: the matcher's
early return for an empty batch (as the comments describe) and the label loss. Building the
indices as int64 (DETR's matcher fix) is my choice of fix.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn.functional as F

class SparseInstMatcher:
    """sparseinst.loss.SparseInstMatcher (stand-in: the no-instance early return)."""

    def __call__(self, outputs, targets):
        B, N = outputs["pred_logits"].shape[:2]
        num_insts = sum(len(t["labels"]) for t in targets)
        if num_insts == 0:
            return [(torch.as_tensor([]), torch.as_tensor([]))] * B
        raise NotImplementedError("the Hungarian step is not needed for this repro")

class SparseInstCriterion:
    def __init__(self, num_classes=3):
        self.num_classes = num_classes

    def _get_src_permutation_idx(self, indices):
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
        src_idx = torch.cat([src for (src, _) in indices])
        return batch_idx, src_idx

    def loss_labels(self, outputs, targets, indices, num_instances):
        src_logits = outputs["pred_logits"]
        target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
        target_classes = torch.full(src_logits.shape[:2], self.num_classes, dtype=torch.int64)
        return F.cross_entropy(src_logits.flatten(0, 1), target_classes.flatten())

outputs = {"pred_logits": torch.randn(2, 10, 4)}
targets = [{"labels": torch.zeros(0, dtype=torch.int64)}, {"labels": torch.zeros(0, dtype=torch.int64)}]
matcher = SparseInstMatcher()
criterion = SparseInstCriterion()
'''
CELL = '''
indices = matcher(outputs, targets)
loss = criterion.loss_labels(outputs, targets, indices, num_instances=1)
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["indices"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("[(torch.as_tensor([]), torch.as_tensor([]))]",
                  "[(torch.as_tensor([], dtype=torch.int64), torch.as_tensor([], dtype=torch.int64))]")
CLEAN = False
