"""TrackFormer / DETR `SetCriterion`: the Hungarian matcher returns its indices as CPU int64 tensors, and the loss indexes the GPU predictions and targets with them.

Source: https://github.com/timmeinhardt/trackformer (src/trackformer/models/matcher.py, `HungarianMatcher.forward`:
`return [(torch.as_tensor(i, dtype=torch.int64), torch.as_tensor(j, dtype=torch.int64)) for i, j in indices]`;
src/trackformer/models/detr.py, `SetCriterion.loss_labels` / `loss_boxes` / `_get_src_permutation_idx`).
Looks like a device bug (index tensors on the CPU, predictions and targets on the GPU), but advanced
indexing accepts CPU indices for a tensor on any device, and `empty_weight` is a registered buffer
that follows `criterion.to(device)`. Stand-in: `scipy.optimize.linear_sum_assignment` on the
`.cpu()` cost matrix is replaced by a fixed assignment (same CPU int64 output); `meta` stands in for
the GPU; the GIoU term is left out.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class HungarianMatcher(nn.Module):
    def __init__(self, cost_class=1, cost_bbox=5, cost_giou=2):
        super().__init__()
        self.cost_class, self.cost_bbox, self.cost_giou = cost_class, cost_bbox, cost_giou

    @torch.no_grad()
    def forward(self, outputs, targets):
        bs, num_queries = outputs["pred_logits"].shape[:2]
        # linear_sum_assignment(c[i]) on the cost matrix moved to the CPU; fixed here
        indices = [(list(range(len(t["labels"]))), list(range(len(t["labels"])))[::-1]) for t in targets]
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

    def _get_src_permutation_idx(self, indices):
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
        src_idx = torch.cat([src for (src, _) in indices])
        return batch_idx, src_idx

    def loss_labels(self, outputs, targets, indices, num_boxes):
        src_logits = outputs["pred_logits"]
        idx = self._get_src_permutation_idx(indices)
        target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
        target_classes = torch.full(src_logits.shape[:2], self.num_classes,
                                    dtype=torch.int64, device=src_logits.device)
        target_classes[idx] = target_classes_o
        loss_ce = F.cross_entropy(src_logits.transpose(1, 2), target_classes, weight=self.empty_weight)
        return {"loss_ce": loss_ce}

    def loss_boxes(self, outputs, targets, indices, num_boxes):
        idx = self._get_src_permutation_idx(indices)
        src_boxes = outputs["pred_boxes"][idx]
        target_boxes = torch.cat([t["boxes"][i] for t, (_, i) in zip(targets, indices)], dim=0)
        loss_bbox = F.l1_loss(src_boxes, target_boxes, reduction="none")
        return {"loss_bbox": loss_bbox.sum() / num_boxes}

    def forward(self, outputs, targets):
        indices = self.matcher(outputs, targets)
        num_boxes = float(sum(len(t["labels"]) for t in targets))
        losses = {}
        for loss in self.losses:
            losses.update(getattr(self, "loss_" + loss)(outputs, targets, indices, num_boxes))
        return losses

class DETRHead(nn.Module):
    def __init__(self, num_queries=10, hidden_dim=16, num_classes=1):
        super().__init__()
        self.query_embed = nn.Embedding(num_queries, hidden_dim)
        self.class_embed = nn.Linear(hidden_dim, num_classes + 1)
        self.bbox_embed = nn.Linear(hidden_dim, 4)

    def forward(self, memory):
        hs = self.query_embed.weight.unsqueeze(0) + memory.mean(dim=1, keepdim=True)
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}

device = torch.device("meta")        # "cuda" in train.py
model = DETRHead().to(device)
criterion = SetCriterion(1, HungarianMatcher(), {"loss_ce": 1, "loss_bbox": 5}, eos_coef=0.1,
                         losses=["labels", "boxes"]).to(device)
samples = torch.randn(2, 6, 16)
targets = [{"labels": torch.zeros(3, dtype=torch.int64), "boxes": torch.rand(3, 4)},
           {"labels": torch.zeros(2, dtype=torch.int64), "boxes": torch.rand(2, 4)}]
'''
CELL = '''
samples = samples.to(device)
targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
outputs = model(samples)
loss_dict = criterion(outputs, targets)
losses = sum(loss_dict[k] * criterion.weight_dict[k] for k in loss_dict)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
