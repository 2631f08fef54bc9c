"""Unsloth Qwen2.5-VL vision fine-tuning: the collator's int64 attention_mask goes straight into SDPA.

Source: https://github.com/unslothai/unsloth/issues/3388
Re-running the "Qwen2.5VL(7B)-Vision" notebook on a fresh VM (same script that worked days
before) failed in the first training step with "Expected attn_mask dtype to be bool or float or to
match query dtype, but got attn_mask.dtype: long int and query.dtype: c10::BFloat16 instead.":
the patched attention path of the new release handed the 0/1 `attention_mask` from
`UnslothVisionDataCollator` (int64) to `scaled_dot_product_attention` without turning it into a
boolean/additive mask; the maintainers fixed the patch. Stand-in: a Qwen2.5-VL-shaped LM whose
causal-mask preparation expands the padding mask without converting it, bf16 on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Qwen2_5_VLAttention(nn.Module):
    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.o_proj = nn.Linear(hidden, hidden)

    def forward(self, hidden_states, attention_mask):
        b, n, d = hidden_states.shape
        q, k, v = self.qkv(hidden_states).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask)
        return self.o_proj(out.transpose(1, 2).reshape(b, n, d))

class Qwen2_5_VLModel(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(12, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([Qwen2_5_VLAttention(hidden) for _ in range(2)])

    def _prepare_attention_mask(self, attention_mask, seq_len):
        # the patched path: the padding mask is broadcast as is
        return attention_mask[:, None, None, :].expand(-1, 1, seq_len, -1)

    def forward(self, input_ids, attention_mask, pixel_values, image_grid_thw):
        inputs_embeds = self.embed_tokens(input_ids)
        image_embeds = self.visual(pixel_values).view(input_ids.shape[0], -1, inputs_embeds.shape[-1])
        hidden_states = torch.cat([image_embeds, inputs_embeds[:, image_embeds.shape[1]:]], dim=1)
        mask = self._prepare_attention_mask(attention_mask, hidden_states.shape[1])
        for layer in self.layers:
            hidden_states = hidden_states + layer(hidden_states, mask)
        return hidden_states

class Qwen2_5_VLForConditionalGeneration(nn.Module):
    def __init__(self, vocab=100):
        super().__init__()
        self.model = Qwen2_5_VLModel(vocab)
        self.lm_head = nn.Linear(32, vocab, bias=False)

    def forward(self, input_ids, attention_mask, pixel_values, image_grid_thw, labels):
        hidden = self.model(input_ids, attention_mask, pixel_values, image_grid_thw)
        logits = self.lm_head(hidden).float()
        return F.cross_entropy(logits[:, :-1].flatten(0, 1), labels[:, 1:].flatten(), ignore_index=-100)

# FastVisionModel.from_pretrained("unsloth/Qwen2.5-VL-7B-Instruct", ...) + get_peft_model, bf16 compute
model = Qwen2_5_VLForConditionalGeneration().to(torch.bfloat16)
# UnslothVisionDataCollator(model, tokenizer)(examples): padded to the longest conversation
input_ids = torch.randint(0, 100, (2, 12))
attention_mask = torch.ones(2, 12, dtype=torch.long)
attention_mask[1, 9:] = 0
labels = input_ids.masked_fill(attention_mask == 0, -100)
batch = dict(input_ids=input_ids, attention_mask=attention_mask,
             pixel_values=torch.randn(8, 12, dtype=torch.bfloat16),
             image_grid_thw=torch.tensor([[1, 2, 2], [1, 2, 2]]), labels=labels)
'''
CELL = '''
loss = model(**batch)
loss.backward()
'''
EXPECT_ERROR = "Expected attn_mask dtype to be bool or float or to match query dtype"
CULPRITS = ["batch['attention_mask']"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "return attention_mask[:, None, None, :].expand(-1, 1, seq_len, -1)",
    "return attention_mask[:, None, None, :].expand(-1, 1, seq_len, -1).bool()",
)
CLEAN = False
