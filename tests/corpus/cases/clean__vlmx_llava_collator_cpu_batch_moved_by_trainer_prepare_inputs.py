"""LLaVA fine-tuning: the data collator returns a CPU batch dict (ids, labels, mask, stacked images) and the HF Trainer moves it.

Source: https://github.com/haotian-liu/LLaVA/blob/main/llava/train/train.py
`DataCollatorForSupervisedDataset.__call__` pads `input_ids` / `labels` (IGNORE_INDEX = -100), builds
`attention_mask=input_ids.ne(pad_token_id)` and stacks the per-sample `image` tensors into
`batch['images']`, all on the CPU; `LLaVATrainer` (a transformers Trainer) calls
`_prepare_inputs`, which recursively moves every tensor of the dict to `args.device` before
`model(**inputs)`. Look-alike: a dict of CPU tensors (labels included) next to a model on cuda:0; the
training step moves it and runs.
Stand-ins: a toy LlavaLlamaForCausalLM (vision tower + projector + LM with masked CE loss), the
tokenizer's pad id, and the Trainer's `_prepare_input(s)`; forward only (no backward on the fake GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import types
from dataclasses import dataclass
from typing import Dict, Sequence
import torch
from torch import nn
import torch.nn.functional as F

IGNORE_INDEX = -100

@dataclass
class DataCollatorForSupervisedDataset(object):
    tokenizer: object

    def __call__(self, instances: Sequence[Dict]) -> Dict[str, torch.Tensor]:
        input_ids, labels = tuple([instance[key] for instance in instances]
                                  for key in ("input_ids", "labels"))
        input_ids = torch.nn.utils.rnn.pad_sequence(
            input_ids, batch_first=True, padding_value=self.tokenizer.pad_token_id)
        labels = torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=IGNORE_INDEX)
        input_ids = input_ids[:, :self.tokenizer.model_max_length]
        labels = labels[:, :self.tokenizer.model_max_length]
        batch = dict(
            input_ids=input_ids,
            labels=labels,
            attention_mask=input_ids.ne(self.tokenizer.pad_token_id),
        )
        if 'image' in instances[0]:
            images = [instance['image'] for instance in instances]
            if all(x is not None and x.shape == images[0].shape for x in images):
                batch['images'] = torch.stack(images)
            else:
                batch['images'] = images
        return batch

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.vision_tower = nn.Linear(48, 24)
        self.mm_projector = nn.Linear(24, d)
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layer = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids, labels, attention_mask, images):
        image_features = self.mm_projector(self.vision_tower(images))
        h = torch.cat([image_features, self.embed_tokens(input_ids)], dim=1)
        logits = self.lm_head(torch.relu(self.layer(h)))
        image_labels = torch.full(image_features.shape[:2], IGNORE_INDEX, dtype=labels.dtype, device=labels.device)
        labels = torch.cat([image_labels, labels], dim=1)
        return {"loss": F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=IGNORE_INDEX)}

class LLaVATrainer:                                  # transformers.Trainer, the parts a step uses
    def __init__(self, model, args, data_collator):
        self.model, self.args, self.data_collator = model, args, data_collator

    def _prepare_input(self, data):
        if isinstance(data, dict):
            return type(data)({k: self._prepare_input(v) for k, v in data.items()})
        elif isinstance(data, (tuple, list)):
            return type(data)(self._prepare_input(v) for v in data)
        elif isinstance(data, torch.Tensor):
            return data.to(device=self.args.device)
        return data

    def _prepare_inputs(self, inputs):
        return self._prepare_input(inputs)

    def compute_loss(self, model, inputs):
        return model(**inputs)["loss"]

tokenizer = types.SimpleNamespace(pad_token_id=0, model_max_length=16)
training_args = types.SimpleNamespace(device=torch.device("cuda:0"), bf16=False)
model = LlavaLlamaForCausalLM().to(training_args.device)
collator = DataCollatorForSupervisedDataset(tokenizer=tokenizer)
trainer = LLaVATrainer(model=model, args=training_args, data_collator=collator)
instances = [
    {"input_ids": torch.randint(1, 100, (n,)), "labels": torch.randint(1, 100, (n,)), "image": torch.randn(9, 48)}
    for n in (7, 11, 5)
]
batch = collator(instances)                          # CPU tensors, labels padded with -100
'''
CELL = '''
inputs = trainer._prepare_inputs(batch)
with torch.no_grad():
    loss = trainer.compute_loss(model, inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
