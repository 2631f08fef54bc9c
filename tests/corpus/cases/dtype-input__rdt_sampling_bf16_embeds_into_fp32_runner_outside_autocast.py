"""RoboticsDiffusionTransformer fine-tuning: the periodic sampling feeds bf16 embeddings to the fp32 RDTRunner's adaptors.

Source: https://github.com/thu-ml/RoboticsDiffusionTransformer/issues/21
Fine-tuning on the user's own arm data crashed after 500 steps (the first `log_sample_res`) with
"mat1 and mat2 must have the same dtype, but got BFloat16 and Float". `sample.py` casts the batch
and the precomputed language embeddings to `weight_dtype` (bf16 under mixed precision) and calls
`rdt.predict_action(...)`; the runner prepared by accelerate keeps fp32 weights, and accelerate's
autocast only wraps `forward`, not `predict_action`, so `self.lang_adaptor(lang_tokens)` multiplies
bf16 by fp32. A maintainer: "add `with autocast()` around sampling"; a commenter traced it to the
adaptors built in float32. Stand-ins: RDTRunner with its three condition adaptors and a short
denoising loop; the SigLIP encoder as a bf16 Linear.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class RDTRunner(nn.Module):
    def __init__(self, hidden_size=64, lang_token_dim=96, img_token_dim=48, state_token_dim=32, horizon=8, num_steps=2):
        super().__init__()
        self.lang_adaptor = nn.Sequential(nn.Linear(lang_token_dim, hidden_size), nn.GELU(), nn.Linear(hidden_size, hidden_size))
        self.img_adaptor = nn.Sequential(nn.Linear(img_token_dim, hidden_size), nn.GELU(), nn.Linear(hidden_size, hidden_size))
        self.state_adaptor = nn.Linear(state_token_dim * 2, hidden_size)
        self.model = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.GELU(), nn.Linear(hidden_size, hidden_size))
        self.action_head = nn.Linear(hidden_size, state_token_dim)
        self.horizon, self.num_steps, self.state_token_dim = horizon, num_steps, state_token_dim

    def adapt_conditions(self, lang_tokens, img_tokens, state_tokens):
        return self.lang_adaptor(lang_tokens), self.img_adaptor(img_tokens), self.state_adaptor(state_tokens)

    def conditional_sample(self, lang_cond, img_cond, state_traj, action_mask):
        noisy_action = torch.randn(state_traj.shape[0], self.horizon, self.state_token_dim, dtype=state_traj.dtype)
        for _ in range(self.num_steps):
            h = state_traj + lang_cond.mean(1, keepdim=True) + img_cond.mean(1, keepdim=True)
            noisy_action = noisy_action - 0.1 * self.action_head(self.model(h)) * action_mask
        return noisy_action

    def predict_action(self, lang_tokens, lang_attn_mask, img_tokens, state_tokens, action_mask, ctrl_freqs):
        state_tokens = torch.cat([state_tokens, action_mask.expand_as(state_tokens)], dim=2)
        lang_cond, img_cond, state_traj = self.adapt_conditions(lang_tokens, img_tokens, state_tokens)
        return self.conditional_sample(lang_cond, img_cond, state_traj, action_mask)

weight_dtype = torch.bfloat16                       # accelerator.mixed_precision == "bf16"
rdt = RDTRunner()                                   # accelerator.prepare(rdt): fp32 master weights
vision_encoder = nn.Linear(3 * 8 * 8, 48).to(weight_dtype)   # SigLIP, cast to weight_dtype
batch = {"lang_embeds": torch.randn(2, 12, 96), "lang_attn_mask": torch.ones(2, 12, dtype=torch.bool),
         "images": torch.randn(2, 6, 3, 8, 8), "states": torch.randn(2, 1, 32),
         "state_elem_mask": torch.ones(2, 32), "ctrl_freqs": torch.tensor([25, 25])}
with torch.no_grad():
    images = batch["images"].to(dtype=weight_dtype)
    image_embeds = vision_encoder(images.reshape(2, 6, -1))
    states = batch["states"].to(dtype=weight_dtype)[:, -1:, :]
    state_elem_mask = batch["state_elem_mask"].to(dtype=weight_dtype)
    text_embeds = batch["lang_embeds"].to(dtype=weight_dtype)     # args.precomp_lang_embed
'''
CELL = '''
rdt.eval()
with torch.no_grad():
    pred_actions = rdt.predict_action(
        lang_tokens=text_embeds, lang_attn_mask=batch["lang_attn_mask"], img_tokens=image_embeds,
        state_tokens=states, action_mask=state_elem_mask.unsqueeze(1), ctrl_freqs=batch["ctrl_freqs"])
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["rdt"]
FIX = "namespace"
REFERENCE_FIX = '''
rdt.predict_action = torch.autocast("cpu", dtype=weight_dtype)(rdt.predict_action)
'''
REFERENCE_EDIT = None
CLEAN = False
