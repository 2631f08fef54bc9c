"""Look-alike: a bf16 vision-language model gets bf16 pixel values but int64 input_ids and attention_mask.

Source: https://github.com/NVlabs/alpamayo/pull/37
The PR fixed `to_device()` "incorrectly casting integer tensors when dtype is provided": it now casts
only floating-point tensors and leaves integer and boolean ones alone, since casting `input_ids` /
`attention_mask` to the mixed-precision dtype breaks Hugging Face model inputs. This is the fixed
helper in use: a batch dict whose image is bfloat16 and whose token ids stay int64 on the GPU is the
right layout; nothing to report. Stand-in: a tiny VLM (bf16 embedding, vision projection, LM head).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def to_device(data, device, dtype=None):
    if isinstance(data, torch.Tensor):
        if dtype is not None and data.is_floating_point():
            return data.to(device=device, dtype=dtype)
        return data.to(device=device)
    if isinstance(data, dict):
        return {k: to_device(v, device, dtype) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(to_device(v, device, dtype) for v in data)
    return data

class TinyVLM(nn.Module):
    def __init__(self, vocab=100, dim=32, patch_dim=48):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.vision_proj = nn.Linear(patch_dim, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask, pixel_values):
        text = self.embed_tokens(input_ids)
        image = self.vision_proj(pixel_values.flatten(2))
        hidden = torch.cat([image, text], dim=1)
        mask = torch.cat([torch.ones(image.shape[:2], dtype=attention_mask.dtype, device=attention_mask.device),
                          attention_mask], dim=1)
        return self.lm_head(hidden * mask.unsqueeze(-1).to(hidden.dtype))

model = TinyVLM().to("cuda:0", dtype=torch.bfloat16)
batch = {
    "input_ids": torch.randint(0, 100, (2, 6)),
    "attention_mask": torch.ones(2, 6, dtype=torch.long),
    "pixel_values": torch.rand(2, 4, 3, 4, 4),
}
'''
CELL = '''
inputs = to_device(batch, "cuda:0", dtype=torch.bfloat16)
logits = model(**inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
