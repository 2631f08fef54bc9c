"""Look-alike: Open-GroundingDino's fixed matcher gathers the CPU `label_map` with CPU ids, then moves it.

Source: https://github.com/longzw1997/Open-GroundingDino/blob/main/models/GroundingDINO/matcher.py
The criterion still builds one positive-token map per caption on the CPU (`label_map_list[j]`) while
the targets' `labels` are on CUDA. The matcher now indexes with `tgt_ids.cpu()` and moves the
gathered map with `new_label_map.to(pos_cost_class.device)` before any product with the CUDA cost
terms; the cost matrix itself goes to the CPU (`C.cpu()`) for the assignment on purpose. The CPU
label maps are expected here. Stand-in: criterion and matcher with the repo's structure (tokenizer
reduced to fixed token spans, `linear_sum_assignment` to a per-target argmin, loss to the matched L1
box loss).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

MAX_TEXT_LEN = 32

def create_positive_map(token_span, label_id):
    """Stand-in for the tokenizer-based map: one row marking the tokens of class `label_id`."""
    positive_map = torch.zeros((1, MAX_TEXT_LEN), dtype=torch.float)
    beg, end = token_span[int(label_id[0])]
    positive_map[0, beg:end] = 1.0
    return positive_map

class HungarianMatcher(nn.Module):
    def __init__(self, cost_class=2.0, cost_bbox=5.0, focal_alpha=0.25):
        super().__init__()
        self.cost_class, self.cost_bbox, self.focal_alpha = cost_class, cost_bbox, focal_alpha

    @torch.no_grad()
    def forward(self, outputs, targets, label_map):
        bs, num_queries = outputs["pred_logits"].shape[:2]
        out_prob = outputs["pred_logits"].flatten(0, 1).sigmoid()
        out_bbox = outputs["pred_boxes"].flatten(0, 1)
        tgt_ids = torch.cat([v["labels"] for v in targets])
        tgt_bbox = torch.cat([v["boxes"] for v in targets])

        alpha = self.focal_alpha
        gamma = 2.0
        new_label_map=label_map[tgt_ids.cpu()]

        neg_cost_class = (1 - alpha) * (out_prob ** gamma) * (-(1 - out_prob + 1e-8).log())
        pos_cost_class = alpha * ((1 - out_prob) ** gamma) * (-(out_prob + 1e-8).log())
        new_label_map=new_label_map.to(pos_cost_class.device)

        cost_bbox = torch.cdist(out_bbox, tgt_bbox, p=1)
        cost_class = []
        for idx_map in new_label_map:
            idx_map = idx_map / idx_map.sum()
            cost_class.append(pos_cost_class @ idx_map - neg_cost_class @ idx_map)
        cost_class = torch.stack(cost_class, dim=0).T

        C = self.cost_bbox * cost_bbox + self.cost_class * cost_class
        C = C.view(bs, num_queries, -1).cpu()
        sizes = [len(v["boxes"]) for v in targets]
        indices = []
        for i, c in enumerate(C.split(sizes, -1)):
            src = c[i].argmin(0)                       # linear_sum_assignment stand-in
            indices.append((src, torch.arange(c.shape[-1])))
        return indices

class SetCriterion(nn.Module):
    def __init__(self, matcher, token_span):
        super().__init__()
        self.matcher = matcher
        self.token_span = token_span

    def forward(self, outputs, targets, cap_list, captions):
        label_map_list = []
        for j in range(len(cap_list)):
            label_map = []
            for i in range(len(cap_list[j])):
                label_id = torch.tensor([i])
                per_label = create_positive_map(self.token_span, label_id)
                label_map.append(per_label)
            label_map = torch.stack(label_map, dim=0).squeeze(1)
            label_map_list.append(label_map)
        loss_bbox = 0
        for j in range(len(cap_list)):
            for_match = {"pred_logits": outputs["pred_logits"][j].unsqueeze(0),
                         "pred_boxes": outputs["pred_boxes"][j].unsqueeze(0)}
            inds = self.matcher(for_match, [targets[j]], label_map_list[j])
            src, tgt = inds[0]
            src_boxes = outputs["pred_boxes"][j].index_select(0, src.to(outputs["pred_boxes"].device))
            tgt_boxes = targets[j]["boxes"].index_select(0, tgt.to(targets[j]["boxes"].device))
            loss_bbox = loss_bbox + (src_boxes - tgt_boxes).abs().sum()
        return {"loss_bbox": loss_bbox}

class TinyGroundingHead(nn.Module):
    def __init__(self, hidden=16, num_queries=10):
        super().__init__()
        self.query = nn.Parameter(torch.randn(num_queries, hidden))
        self.class_embed = nn.Linear(hidden, MAX_TEXT_LEN)
        self.bbox_embed = nn.Linear(hidden, 4)

    def forward(self, bs):
        q = self.query.unsqueeze(0).expand(bs, -1, -1)
        return {"pred_logits": self.class_embed(q), "pred_boxes": self.bbox_embed(q).sigmoid()}

device = torch.device("cuda:0")
captions = ["person . dog . car .", "person . dog . car ."]
cap_list = [["person", "dog", "car"], ["person", "dog", "car"]]
token_span = [(1, 2), (3, 4), (5, 6)]
model = TinyGroundingHead().to(device)
criterion = SetCriterion(HungarianMatcher(), token_span)
criterion.to(device)
targets = [
    {"labels": torch.tensor([0, 2]), "boxes": torch.rand(2, 4)},
    {"labels": torch.tensor([1]), "boxes": torch.rand(1, 4)},
]
targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
outputs = model(len(captions))
'''
CELL = '''
loss_dict = criterion(outputs, targets, cap_list, captions)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
