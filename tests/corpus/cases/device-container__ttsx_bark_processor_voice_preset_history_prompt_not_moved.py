"""transformers Bark: `processor(text, voice_preset=...).to(device)` leaves the nested `history_prompt` on the CPU.

Source: https://github.com/huggingface/transformers/issues/34634
Generating with `BarkModel` on cuda and a `voice_preset` ("v2/en_speaker_6") failed with a device
mismatch although the user wrote `inp = processor(sentence, voice_preset=SPEAKER).to(device)`. The
maintainer explained that the processor returns a `BatchEncoding` of `input_ids`, `attention_mask`
and `history_prompt`, the last a nested `BatchFeature`; `BatchEncoding.to()` only moves the tensor
values, so the speaker prompt stays on the CPU. The workaround confirmed in the thread:
`inp['history_prompt'] = inp['history_prompt'].to(device)`.
Stand-ins: BatchEncoding/BatchFeature with the same `.to()` behaviour, a BarkProcessor that loads the
preset, and a BarkModel whose semantic stage embeds the text and the semantic history together
(fp16 and cpu offload from the report left out).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class BatchFeature(dict):
    def to(self, device):
        return BatchFeature({k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in self.items()})

class BatchEncoding(dict):
    def to(self, device):
        # only plain tensors are moved (tokenization_utils_base.BatchEncoding.to)
        return BatchEncoding({k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in self.items()})

class BarkProcessor:
    presets = {"v2/en_speaker_6": {"semantic_prompt": torch.randint(0, 100, (12,)),
                                   "coarse_prompt": torch.randint(0, 64, (2, 24)),
                                   "fine_prompt": torch.randint(0, 64, (8, 24))}}

    def __call__(self, text, voice_preset=None, max_length=16):
        ids = [ord(c) % 120 for c in text][:max_length]
        ids = ids + [0] * (max_length - len(ids))
        out = BatchEncoding({"input_ids": torch.tensor([ids]),
                             "attention_mask": torch.ones(1, max_length, dtype=torch.long)})
        if voice_preset is not None:
            out["history_prompt"] = BatchFeature(self.presets[voice_preset])
        return out

class BarkSemanticModel(nn.Module):
    def __init__(self, vocab=160, hidden=16, max_input_semantic_length=16, semantic_pad_token=150):
        super().__init__()
        self.input_embeds_layer = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab)
        self.max_input_semantic_length = max_input_semantic_length
        self.semantic_pad_token = semantic_pad_token

    @property
    def device(self):
        return self.lm_head.weight.device

    def generate(self, input_ids, history_prompt=None, attention_mask=None):
        L = self.max_input_semantic_length
        if history_prompt is not None:
            semantic_history = history_prompt["semantic_prompt"][-L:]
            semantic_history = nn.functional.pad(semantic_history, (0, L - len(semantic_history)),
                                                 value=self.semantic_pad_token)
        else:
            semantic_history = torch.full((L,), self.semantic_pad_token, dtype=torch.long).to(self.device)
        semantic_history = torch.repeat_interleave(semantic_history[None], input_ids.shape[0], dim=0)
        input_embeds = (self.input_embeds_layer(input_ids[:, :L])
                        + self.input_embeds_layer(semantic_history[:, :L]))
        return self.lm_head(input_embeds).argmax(-1)

class BarkModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.semantic = BarkSemanticModel()
        self.codec = nn.Linear(16, 32)

    @torch.no_grad()
    def generate(self, input_ids=None, history_prompt=None, attention_mask=None, **kwargs):
        semantic_output = self.semantic.generate(input_ids, history_prompt=history_prompt,
                                                 attention_mask=attention_mask)
        return self.codec(semantic_output.float())

device = "cuda:0"
processor = BarkProcessor()
model = BarkModel().to(device)
SPEAKER = "v2/en_speaker_6"
sentence = "Hello, my dog is cute."
inp = processor(sentence.strip(), voice_preset=SPEAKER).to(device)
'''
CELL = '''
audio = model.generate(**inp, do_sample=True, fine_temperature=0.4, coarse_temperature=0.5)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inp['history_prompt']"]
FIX = "namespace"
REFERENCE_FIX = '''
inp['history_prompt'] = inp['history_prompt'].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
