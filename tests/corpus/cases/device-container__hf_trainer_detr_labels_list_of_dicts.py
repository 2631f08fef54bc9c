"""DETR with the HF Trainer on a GPU: the per-image label dicts inside `inputs["labels"]` stay on the CPU.

Source: https://github.com/huggingface/transformers/issues/13146
"Runtime error when training DetrForObjectDetection using HFTrainer with GPU": the failure is in
the loss's Hungarian matcher (`criterion(outputs_loss, labels)` -> `self.matcher(...)`). DETR's
labels are a list of dicts (`class_labels`, `boxes`) per image, and the Trainer's input preparation
of the time moved only the tensors directly in the batch dict, so the targets stayed on the CPU.
Stand-ins: the batch, a one-level `_prepare_inputs`, and a model whose loss runs the matcher costs.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class DetrLike(nn.Module):
    def __init__(self, num_queries=10, num_classes=5, d=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, d, 4, stride=4), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.query_embed = nn.Embedding(num_queries, d)
        self.class_embed = nn.Linear(d, num_classes + 1)
        self.bbox_embed = nn.Linear(d, 4)

    def forward(self, pixel_values, labels=None):
        feats = self.backbone(pixel_values).unsqueeze(1) + self.query_embed.weight.unsqueeze(0)
        logits, pred_boxes = self.class_embed(feats), self.bbox_embed(feats).sigmoid()
        loss = 0.0
        for b, target in enumerate(labels):
            out_prob = logits.select(0, b).softmax(-1)
            cost_class = -out_prob.index_select(1, target["class_labels"])
            out_bbox = pred_boxes.select(0, b)
            cost_bbox = (out_bbox.unsqueeze(1) - target["boxes"].unsqueeze(0)).abs().sum(-1)
            loss = loss + (cost_class + cost_bbox).min(0).values.mean()
        return loss

def _prepare_inputs(inputs, device):
    return {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in inputs.items()}

device = torch.device("cuda:0")
model = DetrLike().to(device)
batch = {"pixel_values": torch.randn(2, 3, 64, 64),
         "labels": [{"class_labels": torch.tensor([1, 3]), "boxes": torch.rand(2, 4)},
                    {"class_labels": torch.tensor([2]), "boxes": torch.rand(1, 4)}]}
inputs = _prepare_inputs(batch, device)
'''
CELL = '''
loss = model(**inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs['labels'][0]['class_labels']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs["labels"] = [{k: v.to(device) for k, v in t.items()} for t in inputs["labels"]]
'''
REFERENCE_EDIT = None
CLEAN = False
