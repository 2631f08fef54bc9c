"""HF Trainer: `_prepare_input` moves dicts, lists and tuples of tensors, but a dataclass batch passes through on the CPU.

Source: https://github.com/huggingface/transformers/issues/29068
"Add Support for Dataclasses to Trainer": `Trainer._prepare_input` transfers the tensors of Mappings,
lists and tuples to `args.device`, but a custom collator returning a Python dataclass gets it back
unchanged, so `compute_loss(model, inputs)` runs the GPU model on CPU tensors. Stand-ins: the
Trainer's `_prepare_input`/`_prepare_inputs`/`compute_loss` as in transformers, a dataclass collator
and an image classifier taking the dataclass.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from collections.abc import Mapping
from dataclasses import dataclass
import torch
from torch import nn

@dataclass
class ModelInput:
    pixel_values: torch.Tensor
    labels: torch.Tensor

def collate_fn(examples):
    return ModelInput(pixel_values=torch.stack([e["pixel_values"] for e in examples]),
                      labels=torch.tensor([e["label"] for e in examples]))

class Trainer:
    def __init__(self, model, device):
        self.model, self.device = model.to(device), device

    def _prepare_input(self, data):
        if isinstance(data, Mapping):
            return type(data)({k: self._prepare_input(v) for k, v in data.items()})
        elif isinstance(data, (tuple, list)):
            return type(data)(self._prepare_input(v) for v in data)
        elif isinstance(data, torch.Tensor):
            return data.to(device=self.device)
        return data

    def _prepare_inputs(self, inputs):
        return self._prepare_input(inputs)

    def compute_loss(self, model, inputs):
        logits = model(inputs)
        return nn.functional.cross_entropy(logits, inputs.labels)

class ImageClassifier(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(8, num_classes)

    def forward(self, inputs: ModelInput):
        return self.head(self.backbone(inputs.pixel_values))

device = torch.device("cuda:0")
model = ImageClassifier()
trainer = Trainer(model, device)
examples = [{"pixel_values": torch.randn(3, 16, 16), "label": i % 4} for i in range(4)]
inputs = trainer._prepare_inputs(collate_fn(examples))
'''
CELL = '''
loss = trainer.compute_loss(model, inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = ModelInput(pixel_values=inputs.pixel_values.to(device), labels=inputs.labels.to(device))
'''
REFERENCE_EDIT = None
CLEAN = False
