"""Bark with a voice preset: `inputs.to(device)` moves the token ids but not the nested `history_prompt`.

Source: https://github.com/huggingface/transformers/pull/38985
With a voice preset the Bark processor returns a `BatchEncoding` of `input_ids`, `attention_mask`
and `history_prompt`, itself a `BatchFeature` of prompt tensors. `BatchEncoding.to()` only moved
values that are tensors, so `model.generate(**inputs.to(device))` on cuda raised "Expected all
tensors to be on the same device ... (when checking argument for argument index in method
wrapper_CUDA__index_select)". The workaround was `inputs["history_prompt"].to(device)`; the PR made
`.to()` recursive. Stand-in: `BatchEncoding`/`BatchFeature` with the old `.to()`, and the semantic
stage of Bark's generate reduced to embedding the prompt history next to the text.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from collections import UserDict
import torch
from torch import nn

class BatchFeature(UserDict):
    def to(self, device):
        self.data = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in self.data.items()}
        return self

class BatchEncoding(UserDict):
    def to(self, device):
        # transformers < 4.54: only values that are tensors are moved
        self.data = {k: v.to(device=device) if isinstance(v, torch.Tensor) else v
                     for k, v in self.data.items()}
        return self

class BarkSemanticModel(nn.Module):
    def __init__(self, text_vocab=120, semantic_vocab=100, dim=32):
        super().__init__()
        self.text_offset = semantic_vocab
        self.input_embeds_layer = nn.Embedding(text_vocab + semantic_vocab, dim)
        self.lm_head = nn.Linear(dim, semantic_vocab)

    def forward(self, input_embeds):
        return self.lm_head(torch.tanh(input_embeds))

class BarkModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.semantic = BarkSemanticModel()

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, history_prompt=None):
        text_embeds = self.semantic.input_embeds_layer(input_ids + self.semantic.text_offset)
        if history_prompt is not None:
            semantic_history = history_prompt["semantic_prompt"]
            history_embeds = self.semantic.input_embeds_layer(semantic_history).unsqueeze(0)
            text_embeds = torch.cat([history_embeds.expand(input_ids.shape[0], -1, -1), text_embeds], dim=1)
        return self.semantic(text_embeds).argmax(-1)

device = "cuda:0"
model = BarkModel().to(device)
voice_preset = BatchFeature({"semantic_prompt": torch.randint(0, 100, (12,)),
                             "coarse_prompt": torch.randint(0, 100, (2, 20)),
                             "fine_prompt": torch.randint(0, 100, (8, 20))})
inputs = BatchEncoding({"input_ids": torch.randint(0, 120, (1, 16)),
                        "attention_mask": torch.ones(1, 16, dtype=torch.long),
                        "history_prompt": voice_preset})
'''
CELL = '''
speech_output = model.generate(**inputs.to(device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs['history_prompt']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs["history_prompt"] = inputs["history_prompt"].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
