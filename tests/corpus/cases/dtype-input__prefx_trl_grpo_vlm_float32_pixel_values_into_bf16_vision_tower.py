"""TRL GRPOTrainer on a VLM with bf16=True: the processor's float32 `pixel_values` reach the bf16 vision tower.

Source: https://github.com/huggingface/trl/pull/5073
"Cast multimodal forward_kwargs to compute dtype for bf16/fp16 training": when training a VLM with
`bf16=True`, the `pixel_values` returned by the processor stay float32 after `_prepare_inputs` (which only
moves them to the device; the dtype cast is DeepSpeed-specific), while the vision encoder weights are
bfloat16, so the forward crashes in `torch.layer_norm` ("expected scalar type BFloat16 but found Float",
the next failure in the #4451 thread). The PR casts the floating-point forward kwargs to the compute dtype.
Stand-ins: a tiny VLM whose vision tower starts with a LayerNorm over patch features, the processor
output already on the device, and GRPOTrainer reduced to the per-token log-prob forward. Run on the CPU,
where the same layer_norm reports "mixed dtype (CPU): expect parameter to have scalar type of Float".
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class VisionTower(nn.Module):
    def __init__(self, patch_dim=12, hidden=16):
        super().__init__()
        self.pre_layernorm = nn.LayerNorm(patch_dim)
        self.proj = nn.Linear(patch_dim, hidden)
    def forward(self, pixel_values):
        return self.proj(self.pre_layernorm(pixel_values))

class TinyVLMForConditionalGeneration(nn.Module):
    def __init__(self, vocab=64, hidden=16, patch_dim=12):
        super().__init__()
        self.visual = VisionTower(patch_dim, hidden)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
    def forward(self, input_ids, attention_mask=None, pixel_values=None, image_grid_thw=None, logits_to_keep=0):
        h = self.embed_tokens(input_ids)
        if pixel_values is not None:
            img = self.visual(pixel_values).mean(dim=0)
            h = h + img
        logits = self.lm_head(h)
        return logits[:, -logits_to_keep:, :] if logits_to_keep else logits

class GRPOConfig:
    def __init__(self, bf16=True, temperature=1.0):
        self.bf16 = bf16
        self.temperature = temperature

class GRPOTrainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.temperature = args.temperature

    def _get_per_token_logps(self, model, input_ids, attention_mask, logits_to_keep, **forward_kwargs):
        logits = model(input_ids=input_ids, attention_mask=attention_mask, logits_to_keep=logits_to_keep + 1, **forward_kwargs)
        logits = logits[:, :-1, :] / self.temperature
        completion_ids = input_ids[:, -logits_to_keep:]
        logps = F.log_softmax(logits.float(), dim=-1)
        return torch.gather(logps, 2, completion_ids.unsqueeze(-1)).squeeze(-1)

    def compute_loss(self, model, inputs):
        prompt_ids, prompt_mask = inputs["prompt_ids"], inputs["prompt_mask"]
        completion_ids, completion_mask = inputs["completion_ids"], inputs["completion_mask"]
        input_ids = torch.cat([prompt_ids, completion_ids], dim=1)
        attention_mask = torch.cat([prompt_mask, completion_mask], dim=1)
        logits_to_keep = completion_ids.size(1)
        forward_kwargs = {k: inputs[k] for k in ("pixel_values", "image_grid_thw") if k in inputs}
        per_token_logps = self._get_per_token_logps(model, input_ids, attention_mask, logits_to_keep, **forward_kwargs)
        advantages = inputs["advantages"]
        per_token_loss = -torch.exp(per_token_logps - per_token_logps.detach()) * advantages.unsqueeze(1)
        return ((per_token_loss * completion_mask).sum(-1) / completion_mask.sum(-1).clamp(min=1.0)).mean()

device = torch.device("cpu")   # one device: the bug is the dtype
model = TinyVLMForConditionalGeneration().to(device=device, dtype=torch.bfloat16)
training_args = GRPOConfig(bf16=True)
trainer = GRPOTrainer(model=model, args=training_args)
# what _generate_and_score_completions hands to the loss: the processor output moved to the device
inputs = {
    "prompt_ids": torch.randint(1, 64, (2, 6), device=device),
    "prompt_mask": torch.ones(2, 6, dtype=torch.long, device=device),
    "completion_ids": torch.randint(1, 64, (2, 5), device=device),
    "completion_mask": torch.ones(2, 5, dtype=torch.long, device=device),
    "pixel_values": torch.randn(8, 12).to(device),          # float32 from the image processor
    "image_grid_thw": torch.tensor([[1, 2, 2], [1, 2, 2]]).to(device),
    "advantages": torch.randn(2).to(device),
}
'''
CELL = '''
with torch.no_grad():
    loss = trainer.compute_loss(model, inputs)
'''
EXPECT_ERROR = ("expected scalar type", "mixed dtype", "should be the same", "same dtype")
CULPRITS = ['inputs["pixel_values"]']
FIX = "namespace"
REFERENCE_FIX = '''
inputs["pixel_values"] = inputs["pixel_values"].to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
