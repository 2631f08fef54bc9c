"""Look-alike: DETR's Hungarian matcher returns CPU index tensors that then index the GPU predictions and targets.

Source: https://github.com/facebookresearch/detr/issues/562
".cpu() operation as bottleneck in training": DETR's `HungarianMatcher` moves the cost matrix to the
CPU for scipy's `linear_sum_assignment` and returns `torch.as_tensor(i, dtype=torch.int64)` CPU
indices by design; `SetCriterion` then indexes the GPU `pred_logits`/`pred_boxes` and the GPU
targets with them (`outputs['pred_boxes'][idx]`, `t["labels"][J]`), which PyTorch allows. CPU
indices next to GPU tensors here are correct: no finding expected. Stand-in: the matcher's cost
computation, `linear_sum_assignment` by an identity assignment (no data can be read back from the
simulated GPU, meta), `loss_labels`/`loss_boxes` of SetCriterion; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def linear_sum_assignment(cost_shape):
    n_q, n_t = cost_shape
    return list(range(n_t)), list(range(n_t))      # scipy.optimize.linear_sum_assignment(c) stand-in

class HungarianMatcher(nn.Module):
    def __init__(self, cost_class=1, cost_bbox=5):
        super().__init__()
        self.cost_class, self.cost_bbox = cost_class, cost_bbox

    @torch.no_grad()
    def forward(self, outputs, targets):
        bs, num_queries = outputs["pred_logits"].shape[:2]
        out_prob = outputs["pred_logits"].flatten(0, 1).softmax(-1)
        out_bbox = outputs["pred_boxes"].flatten(0, 1)
        tgt_ids = torch.cat([v["labels"] for v in targets])
        tgt_bbox = torch.cat([v["boxes"] for v in targets])
        cost_class = -out_prob[:, tgt_ids]
        cost_bbox = torch.cdist(out_bbox, tgt_bbox, p=1)
        C = (self.cost_bbox * cost_bbox + self.cost_class * cost_class).view(bs, num_queries, -1)
        sizes = [len(v["boxes"]) for v in targets]
        indices = [linear_sum_assignment(c[i].shape) for i, c in enumerate(C.split(sizes, -1))]
        return [(torch.as_tensor(i, dtype=torch.int64), torch.as_tensor(j, dtype=torch.int64)) for i, j in indices]

class SetCriterion(nn.Module):
    def __init__(self, num_classes, matcher, eos_coef=0.1):
        super().__init__()
        self.num_classes, self.matcher = num_classes, matcher
        empty_weight = torch.ones(self.num_classes + 1)
        empty_weight[-1] = eos_coef
        self.register_buffer('empty_weight', empty_weight)

    def _get_src_permutation_idx(self, indices):
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
        src_idx = torch.cat([src for (src, _) in indices])
        return batch_idx, src_idx

    def forward(self, outputs, targets):
        indices = self.matcher(outputs, targets)
        src_logits = outputs['pred_logits']
        idx = self._get_src_permutation_idx(indices)
        target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
        target_classes = torch.full(src_logits.shape[:2], self.num_classes, dtype=torch.int64, device=src_logits.device)
        target_classes[idx] = target_classes_o
        loss_ce = F.cross_entropy(src_logits.transpose(1, 2), target_classes, self.empty_weight)
        src_boxes = outputs['pred_boxes'][idx]
        target_boxes = torch.cat([t['boxes'][i] for t, (_, i) in zip(targets, indices)], dim=0)
        loss_bbox = F.l1_loss(src_boxes, target_boxes, reduction='none').sum() / len(target_boxes)
        return {'loss_ce': loss_ce, 'loss_bbox': loss_bbox}

class DETRHead(nn.Module):
    def __init__(self, num_classes=5, num_queries=12, d=32):
        super().__init__()
        self.query_embed = nn.Embedding(num_queries, d)
        self.class_embed = nn.Linear(d, num_classes + 1)
        self.bbox_embed = nn.Linear(d, 4)

    def forward(self, memory):
        hs = self.query_embed.weight.unsqueeze(0) + memory.mean(1, keepdim=True)
        return {'pred_logits': self.class_embed(hs), 'pred_boxes': self.bbox_embed(hs).sigmoid()}

device = torch.device('meta')                                   # args.device = 'cuda'
model = DETRHead().to(device)
criterion = SetCriterion(5, HungarianMatcher()).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
samples = torch.randn(2, 50, 32).to(device)
targets = [{'labels': torch.tensor([1, 3]), 'boxes': torch.rand(2, 4)},
           {'labels': torch.tensor([0, 2, 4]), 'boxes': torch.rand(3, 4)}]
targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
'''
CELL = '''
outputs = model(samples)
loss_dict = criterion(outputs, targets)
losses = sum(loss_dict.values())
optimizer.zero_grad()
losses.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
