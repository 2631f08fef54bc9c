"""MDETR `evaluate`: samples, positive map and target tensors go to the GPU, captions and the excluded target keys stay on the host, and `PostProcess` scales boxes by the moved `orig_size`.

Source: https://github.com/ashkamath/mdetr/blob/main/engine.py (evaluate), util/misc.py (targets_to),
models/postprocessors.py (PostProcess), models/transformer.py (tokenizer output `.to(device)`).
`targets_to` moves every target entry with `.to(device)` except the excluded keys
(`tokens_positive`, `sentence_id`, `original_img_id`, `nb_eval`, ...) and drops `caption`; the
captions are passed to the model as strings and tokenized inside it, the tokenizer's batch being
moved to the image device (`.to(device)`). `orig_target_sizes = torch.stack([t["orig_size"] ...])`
is then on the GPU like the predictions, and `PostProcess` runs. Stand-in: a toy MDETR (conv
backbone, tokenizer, one fusion layer, class/box heads, `encode_and_save`/`memory_cache` split),
the RoBERTa tokenizer as a word-hash tokenizer, one collated batch; no criterion; the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from typing import Any, Dict, List
import torch
import torch.nn as nn
import torch.nn.functional as F

# --- util/box_ops.py, util/misc.py -------------------------------------------------------------------
def box_cxcywh_to_xyxy(x):
    x_c, y_c, w, h = x.unbind(-1)
    b = [(x_c - 0.5 * w), (y_c - 0.5 * h), (x_c + 0.5 * w), (y_c + 0.5 * h)]
    return torch.stack(b, dim=-1)

def targets_to(targets: List[Dict[str, Any]], device):
    """Moves the target dicts to the given device."""
    excluded_keys = [
        "questionId",
        "tokens_positive",
        "tokens",
        "dataset_name",
        "sentence_id",
        "original_img_id",
        "nb_eval",
        "task_id",
        "original_id",
    ]
    return [{k: v.to(device) if k not in excluded_keys else v for k, v in t.items() if k != "caption"} for t in targets]

# --- models (toy) -------------------------------------------------------------------------------------
class BatchEncoding(dict):
    def __getattr__(self, k):
        return self[k]
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class RobertaTokenizerFast:
    def batch_encode_plus(self, text, padding="longest", return_tensors="pt"):
        ids = [[0] + [3 + (sum(map(ord, w)) % 90) for w in t.split()] + [2] for t in text]
        n = max(len(i) for i in ids)
        input_ids = torch.tensor([i + [1] * (n - len(i)) for i in ids])
        return BatchEncoding(input_ids=input_ids, attention_mask=(input_ids != 1).long())

class MDETR(nn.Module):
    def __init__(self, d_model=32, num_queries=10, max_text_len=256):
        super().__init__()
        self.backbone = nn.Conv2d(3, d_model, 16, stride=16)
        self.tokenizer = RobertaTokenizerFast()
        self.text_embed = nn.Embedding(100, d_model)
        self.query_embed = nn.Embedding(num_queries, d_model)
        self.fusion = nn.Linear(d_model, d_model)
        self.class_embed = nn.Linear(d_model, max_text_len)
        self.bbox_embed = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, 4))

    def forward(self, samples, captions, encode_and_save=True, memory_cache=None):
        if encode_and_save:
            src = self.backbone(samples).flatten(2).transpose(1, 2)
            device = src.device
            tokenized = self.tokenizer.batch_encode_plus(captions, padding="longest", return_tensors="pt").to(device)
            text = self.text_embed(tokenized.input_ids) * tokenized.attention_mask.unsqueeze(-1)
            return {"memory": torch.cat([src, text], dim=1), "tokenized": tokenized}
        memory = memory_cache["memory"]
        q = self.query_embed.weight.unsqueeze(0).expand(memory.shape[0], -1, -1)
        att = (q @ memory.transpose(1, 2)).softmax(-1) @ memory
        hs = torch.tanh(self.fusion(q + att))
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}

class PostProcess(nn.Module):
    @torch.no_grad()
    def forward(self, outputs, target_sizes):
        out_logits, out_bbox = outputs["pred_logits"], outputs["pred_boxes"]
        assert len(out_logits) == len(target_sizes)
        assert target_sizes.shape[1] == 2
        prob = F.softmax(out_logits, -1)
        scores, labels = prob[..., :-1].max(-1)
        labels = torch.ones_like(labels)
        scores = 1 - prob[:, :, -1]
        boxes = box_cxcywh_to_xyxy(out_bbox)
        img_h, img_w = target_sizes.unbind(1)
        scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1)
        boxes = boxes * scale_fct[:, None, :]
        assert len(scores) == len(labels) == len(boxes)
        results = [{"scores": s, "labels": l, "boxes": b} for s, l, b in zip(scores, labels, boxes)]
        return results

device = torch.device("meta")   # torch.device(args.device)
model = MDETR().to(device)
model.eval()
postprocessors = {"bbox": PostProcess()}

# one collated batch of the refexp/flickr loader (collate_fn); the caption and id fields are host data
batch_dict = {
    "samples": torch.rand(2, 3, 64, 64),
    "positive_map": torch.zeros(3, 256),
    "targets": [
        {"caption": "the man on the left", "boxes": torch.rand(1, 4), "labels": torch.tensor([1]),
         "orig_size": torch.tensor([480, 640]), "size": torch.tensor([64, 64]),
         "tokens_positive": [[[4, 7]]], "original_img_id": 139, "sentence_id": 0, "nb_eval": 1},
        {"caption": "a red umbrella and a dog", "boxes": torch.rand(2, 4), "labels": torch.tensor([1, 1]),
         "orig_size": torch.tensor([427, 640]), "size": torch.tensor([64, 64]),
         "tokens_positive": [[[2, 14]], [[19, 24]]], "original_img_id": 285, "sentence_id": 1, "nb_eval": 2},
    ],
}
'''
CELL = '''
with torch.no_grad():
    samples = batch_dict["samples"].to(device)
    positive_map = batch_dict["positive_map"].to(device) if "positive_map" in batch_dict else None
    targets = batch_dict["targets"]
    captions = [t["caption"] for t in targets]

    targets = targets_to(targets, device)

    memory_cache = model(samples, captions, encode_and_save=True)
    outputs = model(samples, captions, encode_and_save=False, memory_cache=memory_cache)

    orig_target_sizes = torch.stack([t["orig_size"] for t in targets], dim=0)
    results = postprocessors["bbox"](outputs, orig_target_sizes)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
