"""`inputs.to(device)` moves the processor's tensors but not the label tensors inside its lists.

Source: https://github.com/huggingface/transformers/issues/42205
The EoMT image processor returns `mask_labels` and `class_labels` as lists of tensors (one per
image, sizes vary); `BatchFeature.to(device)` moves only the tensors it holds directly, so the
loss meets CPU labels. Stand-ins: a dict with the same `.to()` and a small model with the same
per-image loss loop.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class BatchFeature(dict):
    # like transformers.BatchFeature.to: tensors held directly move, lists are left as they are
    def to(self, device):
        return BatchFeature({k: v.to(device) if torch.is_tensor(v) else v for k, v in self.items()})

class EomtStandIn(nn.Module):
    def __init__(self, num_labels=5, queries=3):
        super().__init__()
        self.backbone = nn.Linear(3 * 8 * 8, 32)
        self.class_head = nn.Linear(32, queries * num_labels)
        self.mask_head = nn.Linear(32, queries * 8 * 8)
        self.queries, self.num_labels = queries, num_labels

    def forward(self, pixel_values, mask_labels, class_labels):
        feats = self.backbone(pixel_values.flatten(1))
        class_logits = self.class_head(feats).unflatten(1, (self.queries, self.num_labels))
        mask_logits = self.mask_head(feats).unflatten(1, (self.queries, 64))
        loss = 0.0
        for logits, masks, classes, mlog in zip(class_logits.unbind(0), mask_labels,
                                                class_labels, mask_logits.unbind(0)):
            loss = loss + F.cross_entropy(logits, classes)
            loss = loss + F.binary_cross_entropy_with_logits(mlog, masks.flatten(1))
        return loss

model = EomtStandIn().to("cuda:0")
inputs = BatchFeature(
    pixel_values=torch.randn(2, 3, 8, 8),
    mask_labels=[torch.rand(3, 8, 8).round(), torch.rand(3, 8, 8).round()],
    class_labels=[torch.randint(0, 5, (3,)), torch.randint(0, 5, (3,))],
)
inputs = inputs.to("cuda:0")
'''
CELL = '''
loss = model(**inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs['class_labels']", "inputs['mask_labels']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs["class_labels"] = [t.to("cuda:0") for t in inputs["class_labels"]]
inputs["mask_labels"] = [t.to("cuda:0") for t in inputs["mask_labels"]]
'''
REFERENCE_EDIT = None
CLEAN = False
