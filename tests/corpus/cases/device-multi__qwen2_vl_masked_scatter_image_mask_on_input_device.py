"""Qwen2-VL 7B with device_map="auto" on two GPUs: the image mask is on the inputs' card, the embeddings on the LM's.

Source: https://github.com/huggingface/transformers/issues/33816
The model-card example (`device_map="auto"`, `inputs = inputs.to(model.device)`,
`model.generate(**inputs, max_new_tokens=128)`) raised "Expected all tensors to be on the same
device, but found at least two devices, cuda:1 and cuda:0!" after an upgrade. In the forward,
`image_mask` is computed from `input_ids` (sent to the first card) while `inputs_embeds` come from
`embed_tokens` on the second, and `inputs_embeds.masked_scatter(image_mask, image_embeds)` mixes
them; PR #33851 ("Fix device mismatch errors") moves the mask to `inputs_embeds.device` in Qwen2-VL
and the other VLMs using masked_scatter. Stand-in: the merge step of Qwen2VLForConditionalGeneration
at toy size, pre-hooks in place of accelerate's hooks.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args, kwargs):
    device = next(module.parameters()).device
    move = lambda a: a.to(device) if torch.is_tensor(a) else a
    return tuple(move(a) for a in args), {k: move(v) for k, v in kwargs.items()}

def dispatch(module, device):
    module.to(device)
    module.register_forward_pre_hook(align_devices_hook, with_kwargs=True)

class Qwen2VLConfig:
    image_token_id = 99

class Qwen2VLForConditionalGeneration(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.config = Qwen2VLConfig()
        self.visual = nn.Sequential(nn.Linear(12, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    @property
    def device(self):
        return self.visual[0].weight.device

    def forward(self, input_ids, attention_mask, pixel_values, image_grid_thw):
        inputs_embeds = self.embed_tokens(input_ids)
        image_embeds = self.visual(pixel_values)
        image_mask = (input_ids == self.config.image_token_id).unsqueeze(-1).expand_as(inputs_embeds)
        image_embeds = image_embeds.to(inputs_embeds.device, inputs_embeds.dtype)
        inputs_embeds = inputs_embeds.masked_scatter(image_mask, image_embeds)
        return self.lm_head(inputs_embeds)

    @torch.no_grad()
    def generate(self, input_ids, attention_mask, pixel_values, image_grid_thw, max_new_tokens=128):
        logits = self(input_ids=input_ids, attention_mask=attention_mask,
                      pixel_values=pixel_values, image_grid_thw=image_grid_thw)
        return torch.cat([input_ids, logits[:, -1:].argmax(-1).to(input_ids.device)], dim=-1)

model = Qwen2VLForConditionalGeneration().eval()
dispatch(model, "cuda:0")                    # accelerate's top-level hook: inputs to the first device
dispatch(model.visual, "cuda:0")
dispatch(model.embed_tokens, "cuda:1")
dispatch(model.lm_head, "cuda:1")

input_ids = torch.tensor([[1, 5, 99, 99, 99, 99, 6, 7]])
inputs = {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids),
          "pixel_values": torch.randn(4, 12), "image_grid_thw": torch.tensor([[1, 4, 4]])}
inputs = {k: v.to(model.device) for k, v in inputs.items()}      # inputs.to(model.device)
'''
CELL = '''
generated_ids = model.generate(**inputs, max_new_tokens=128)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "image_mask = (input_ids == self.config.image_token_id).unsqueeze(-1).expand_as(inputs_embeds)",
    "image_mask = (input_ids == self.config.image_token_id).unsqueeze(-1).expand_as(inputs_embeds).to(inputs_embeds.device)",
)
CLEAN = False
