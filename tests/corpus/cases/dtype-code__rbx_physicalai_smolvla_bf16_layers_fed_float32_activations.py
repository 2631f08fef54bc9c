"""physical-ai-studio SmolVLA: `to_bfloat16_for_selected_params()` casts the layers to bfloat16, but `state`, `noisy_actions` and the expert output still reach them in float32.

Source: https://github.com/open-edge-platform/physical-ai-studio/issues/1155   (fix: PR #1156)
"SmolVLA training crashes with Float/BFloat16 dtype mismatch": `RuntimeError: mat1 and mat2 must have the same
dtype, but got Float and BFloat16`. `VLAFlowMatching.to_bfloat16_for_selected_params()` casts the whole model to
bfloat16 except a float32 allow-list (vision tower, norms), yet `embed_prefix` feeds the float32 batch `state`
into `state_proj`, `embed_suffix` feeds float32 `noisy_actions` into `action_in_proj`, and `_predict_velocity`
casts the expert output to float32 before `action_out_proj`. PR #1156 casts each activation to the consuming
layer's weight dtype at the crossing point. Stand-in: SmolVLMWithExpert reduced to a float32 vision tower and a
linear expert; the three crossing points keep their code. Dtype bug, so it runs on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn

@dataclass
class SmolVLAConfig:
    dtype: str = "bfloat16"
    max_state_dim: int = 32
    max_action_dim: int = 32
    chunk_size: int = 8
    hidden: int = 64
    expert_hidden: int = 32

class SmolVLMWithExpertModel(nn.Module):
    def __init__(self, hidden, expert_hidden):
        super().__init__()
        self.vision_model = nn.Linear(48, hidden)          # kept in float32
        self.text_model_norm = nn.LayerNorm(hidden)        # kept in float32
        self.lm_expert = nn.Linear(expert_hidden + hidden, expert_hidden)

    def embed_image(self, images):
        return self.text_model_norm(self.vision_model(images))

    def forward(self, prefix_embs, suffix_embs):
        ctx = prefix_embs.mean(dim=1, keepdim=True).expand(-1, suffix_embs.shape[1], -1)
        return self.lm_expert(torch.cat([suffix_embs, ctx.to(suffix_embs.dtype)], dim=-1))

class VLAFlowMatching(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.vlm_with_expert = SmolVLMWithExpertModel(config.hidden, config.expert_hidden)
        self.state_proj = nn.Linear(config.max_state_dim, config.hidden)
        self.action_in_proj = nn.Linear(config.max_action_dim, config.expert_hidden)
        self.action_time_mlp = nn.Linear(1, config.expert_hidden)
        self.action_out_proj = nn.Linear(config.expert_hidden, config.max_action_dim)
        self.to_bfloat16_for_selected_params(config.dtype)

    def to_bfloat16_for_selected_params(self, precision="bfloat16"):
        if precision != "bfloat16":
            return
        self.to(dtype=torch.bfloat16)
        params_to_keep_float32 = ["vision_model", "text_model_norm"]
        for name, param in self.named_parameters():
            if any(selector in name for selector in params_to_keep_float32):
                param.data = param.data.to(dtype=torch.float32)

    def embed_prefix(self, images, state):
        img_embs = self.vlm_with_expert.embed_image(images)
        state_emb = self.state_proj(state)
        return torch.cat([img_embs, state_emb[:, None, :].to(img_embs.dtype)], dim=1)

    def embed_suffix(self, noisy_actions, timestep):
        action_emb = self.action_in_proj(noisy_actions)
        time_emb = self.action_time_mlp(timestep[:, None, None].expand(-1, noisy_actions.shape[1], 1).to(action_emb.dtype))
        return action_emb + time_emb

    def _predict_velocity(self, prefix_embs, suffix_embs):
        suffix_out = self.vlm_with_expert(prefix_embs, suffix_embs)
        suffix_out = suffix_out.to(dtype=torch.float32)
        return self.action_out_proj(suffix_out)

    def forward(self, images, state, actions, noise=None, time=None):
        noise = torch.randn_like(actions) if noise is None else noise
        time = torch.rand(actions.shape[0]) if time is None else time
        x_t = time[:, None, None] * noise + (1 - time[:, None, None]) * actions
        u_t = noise - actions
        prefix_embs = self.embed_prefix(images, state)
        suffix_embs = self.embed_suffix(x_t, time)
        v_t = self._predict_velocity(prefix_embs, suffix_embs)
        return torch.nn.functional.mse_loss(u_t, v_t.float(), reduction="none")

class SmolVLA(nn.Module):
    def __init__(self, config=None):
        super().__init__()
        self.config = config or SmolVLAConfig()
        self.model = VLAFlowMatching(self.config)

    def forward(self, batch):
        losses = self.model(batch["observation.images"], batch["observation.state"], batch["action"])
        return losses.mean()

policy = SmolVLA()
batch = {
    "observation.images": torch.randn(4, 6, 48),
    "observation.state": torch.randn(4, 32),
    "action": torch.randn(4, 8, 32),
}
'''
CELL = '''
with torch.no_grad():
    loss = policy(batch)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["policy.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        state_emb = self.state_proj(state)
        return torch.cat([img_embs, state_emb[:, None, :].to(img_embs.dtype)], dim=1)

    def embed_suffix(self, noisy_actions, timestep):
        action_emb = self.action_in_proj(noisy_actions)
        time_emb = self.action_time_mlp(timestep[:, None, None].expand(-1, noisy_actions.shape[1], 1).to(action_emb.dtype))
        return action_emb + time_emb

    def _predict_velocity(self, prefix_embs, suffix_embs):
        suffix_out = self.vlm_with_expert(prefix_embs, suffix_embs)
        suffix_out = suffix_out.to(dtype=torch.float32)""",
                  """        state_emb = self.state_proj(state.to(dtype=self.state_proj.weight.dtype))
        return torch.cat([img_embs, state_emb[:, None, :].to(img_embs.dtype)], dim=1)

    def embed_suffix(self, noisy_actions, timestep):
        action_emb = self.action_in_proj(noisy_actions.to(dtype=self.action_in_proj.weight.dtype))
        time_emb = self.action_time_mlp(timestep[:, None, None].expand(-1, noisy_actions.shape[1], 1).to(action_emb.dtype))
        return action_emb + time_emb

    def _predict_velocity(self, prefix_embs, suffix_embs):
        suffix_out = self.vlm_with_expert(prefix_embs, suffix_embs)
        suffix_out = suffix_out.to(dtype=self.action_out_proj.weight.dtype)""")
CLEAN = False
