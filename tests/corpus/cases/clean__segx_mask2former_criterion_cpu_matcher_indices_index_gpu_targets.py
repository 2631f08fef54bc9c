"""Look-alike: Mask2Former's SetCriterion indexes GPU logits/labels with the Hungarian matcher's CPU index tensors, and its no-object class weight is a registered buffer.

Source: https://github.com/facebookresearch/Mask2Former/blob/main/mask2former/modeling/criterion.py
`HungarianMatcher` runs scipy's linear_sum_assignment and returns
`(torch.as_tensor(i, dtype=torch.int64), torch.as_tensor(j, dtype=torch.int64))` on the CPU.
`SetCriterion.loss_labels` uses them as-is: `t["labels"][J]` on GPU labels, `target_classes[idx] =
target_classes_o` on a `torch.full(..., device=src_logits.device)` tensor, and weights the
cross-entropy with `self.empty_weight`, built with `torch.ones(num_classes + 1)` in `__init__` but
registered as a buffer, so `model.to(device)` moves it. CPU index tensors for advanced indexing of
device tensors are allowed. Nothing to report. Stand-ins: the matcher's cost matrix and scipy call
replaced by a fixed assignment (same CPU int64 output), MaskFormer reduced to a query head; only
the 'labels' loss; the distributed `num_masks` all_reduce/`.item()` reduced to a Python number;
the GPU simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class HungarianMatcher(nn.Module):
    """Stand-in: the assignment is fixed instead of linear_sum_assignment(C); output format kept."""
    @torch.no_grad()
    def forward(self, outputs, targets):
        indices = []
        for b, t in enumerate(targets):
            n = len(t["labels"])
            i = list(range(b, b + n))            # query indices chosen by the assignment
            j = list(range(n))[::-1]             # target indices
            indices.append((i, j))
        return [(torch.as_tensor(i, dtype=torch.int64), torch.as_tensor(j, dtype=torch.int64)) for i, j in indices]

class SetCriterion(nn.Module):
    def __init__(self, num_classes, matcher, weight_dict, eos_coef, losses):
        super().__init__()
        self.num_classes = num_classes
        self.matcher = matcher
        self.weight_dict = weight_dict
        self.eos_coef = eos_coef
        self.losses = losses
        empty_weight = torch.ones(self.num_classes + 1)
        empty_weight[-1] = self.eos_coef
        self.register_buffer("empty_weight", empty_weight)

    def loss_labels(self, outputs, targets, indices, num_masks):
        assert "pred_logits" in outputs
        src_logits = outputs["pred_logits"].float()
        idx = self._get_src_permutation_idx(indices)
        target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
        target_classes = torch.full(
            src_logits.shape[:2], self.num_classes, dtype=torch.int64, device=src_logits.device
        )
        target_classes[idx] = target_classes_o
        loss_ce = F.cross_entropy(src_logits.transpose(1, 2), target_classes, self.empty_weight)
        return {"loss_ce": loss_ce}

    def _get_src_permutation_idx(self, indices):
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
        src_idx = torch.cat([src for (src, _) in indices])
        return batch_idx, src_idx

    def get_loss(self, loss, outputs, targets, indices, num_masks):
        loss_map = {'labels': self.loss_labels}
        return loss_map[loss](outputs, targets, indices, num_masks)

    def forward(self, outputs, targets):
        outputs_without_aux = {k: v for k, v in outputs.items() if k != "aux_outputs"}
        indices = self.matcher(outputs_without_aux, targets)
        num_masks = max(float(sum(len(t["labels"]) for t in targets)), 1.0)   # as_tensor + all_reduce + clamp(...).item()
        losses = {}
        for loss in self.losses:
            losses.update(self.get_loss(loss, outputs, targets, indices, num_masks))
        return losses

class MaskFormer(nn.Module):
    """Stand-in: backbone + transformer decoder reduced to learned queries read out by a class head."""
    def __init__(self, num_classes=10, num_queries=12, hidden_dim=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, hidden_dim, 4, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.query_feat = nn.Embedding(num_queries, hidden_dim)
        self.class_embed = nn.Linear(hidden_dim, num_classes + 1)
        self.criterion = SetCriterion(num_classes, HungarianMatcher(), {"loss_ce": 2.0}, eos_coef=0.1, losses=["labels"])

    def forward(self, images, targets):
        feats = self.backbone(images).flatten(1)                       # (B, C)
        queries = self.query_feat.weight[None] + feats[:, None]        # (B, Q, C)
        outputs = {"pred_logits": self.class_embed(queries)}
        losses = self.criterion(outputs, targets)
        for k in list(losses.keys()):
            losses[k] *= self.criterion.weight_dict[k]
        return losses

device = torch.device("meta")                  # cfg.MODEL.DEVICE = "cuda", simulated with meta
model = MaskFormer(num_classes=10).to(device)
images = torch.randn(2, 3, 64, 64, device=device)
targets = [{"labels": torch.tensor([3, 7, 1], device=device)},       # DatasetMapper instances -> gt_classes.to(self.device)
           {"labels": torch.tensor([0, 5], device=device)}]
'''
CELL = '''
losses = model(images, targets)
loss = sum(losses.values())
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
