"""RPent Pi0.5 VLA server: the loader casts the PaliGemma/expert weights to bf16, the sampling path feeds fp32 activations, no autocast.

Source: https://github.com/RLinf/RPent/pull/151
"fix(libero): run Pi0.5 inference under bf16 autocast". The author's analysis: the Pi0.5 model loader
converts selected PaliGemma/expert parameters to bf16, while the OpenPI inference path still produces fp32
intermediate activations during action sampling (float32 noise -> action embeddings), so `pi0_pick` failed
before motion with a bf16/fp32 dtype mismatch. The fix wraps `predict_action_batch()` in
`torch.inference_mode()` plus a bf16 `torch.autocast` whose device type is read from the model's parameters.
Stand-ins (reduced, SIM "cpu" so `.cuda()` is dropped): the openpi PI0Pytorch model with
`to_bfloat16_for_selected_params` (norms kept fp32, linears bf16), float32 `sample_noise`, an Euler
flow-matching loop, and the server's `Pi05VLAFacade` with `self._inference_context = torch.no_grad`.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F


class GemmaRMSNorm(nn.Module):
    """openpi transformers_replace GemmaRMSNorm, reduced: fp32 math, returns the input dtype."""
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        dtype = x.dtype
        var = torch.mean(torch.square(x.float()), dim=-1, keepdim=True)
        normed = x * torch.rsqrt(var + self.eps)
        return (normed * (1.0 + self.weight.float())).to(dtype)


class ExpertLayer(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.input_layernorm = GemmaRMSNorm(width)
        self.q_proj = nn.Linear(width, width, bias=False)
        self.o_proj = nn.Linear(width, width, bias=False)
        self.post_attention_layernorm = GemmaRMSNorm(width)
        self.up_proj = nn.Linear(width, 2 * width, bias=False)
        self.down_proj = nn.Linear(2 * width, width, bias=False)

    def forward(self, h):
        a = self.o_proj(torch.tanh(self.q_proj(self.input_layernorm(h))))
        h = h + a
        return h + self.down_proj(F.gelu(self.up_proj(self.post_attention_layernorm(h))))


class PaliGemmaWithExpertModel(nn.Module):
    """openpi gemma_pytorch.PaliGemmaWithExpertModel, reduced to the action expert."""
    def __init__(self, width, num_layers=2, precision="bfloat16"):
        super().__init__()
        self.layers = nn.ModuleList([ExpertLayer(width) for _ in range(num_layers)])
        self.to_bfloat16_for_selected_params(precision)

    def to_bfloat16_for_selected_params(self, precision="bfloat16"):
        if precision == "bfloat16":
            self.to(dtype=torch.bfloat16)
        params_to_keep_float32 = ["input_layernorm", "post_attention_layernorm", "model.norm"]
        for name, param in self.named_parameters():
            if any(selector in name for selector in params_to_keep_float32):
                param.data = param.data.to(dtype=torch.float32)

    def forward(self, suffix_embs):
        h = suffix_embs
        for layer in self.layers:
            h = layer(h)
        return h


def sample_noise(shape, device):
    return torch.normal(mean=0.0, std=1.0, size=shape, dtype=torch.float32, device=device)


class OpenPi0ForRLActionPrediction(nn.Module):
    """rlinf.models.embodiment.openpi model (pi05_libero), reduced to state + flow-matching sampling."""
    def __init__(self, state_dim=8, width=32, action_dim=7, action_chunk=5, num_steps=5):
        super().__init__()
        self.action_dim, self.action_chunk, self.num_steps = action_dim, action_chunk, num_steps
        self.paligemma_with_expert = PaliGemmaWithExpertModel(width)
        self.state_proj = nn.Linear(state_dim, width)
        self.action_in_proj = nn.Linear(action_dim, width)
        self.action_out_proj = nn.Linear(width, action_dim)

    def denoise_step(self, state_emb, x_t, timestep):
        suffix_embs = self.action_in_proj(x_t) + state_emb[:, None, :] + timestep
        suffix_out = self.paligemma_with_expert(suffix_embs)
        suffix_out = suffix_out.to(dtype=torch.float32)
        return self.action_out_proj(suffix_out)

    def predict_action_batch(self, env_obs, mode="eval", **kwargs):
        device = self.state_proj.weight.device
        states = torch.as_tensor(env_obs["states"], device=device)
        state_emb = self.state_proj(states)
        bsize = states.shape[0]
        x_t = sample_noise((bsize, self.action_chunk, self.action_dim), device)
        dt = -1.0 / self.num_steps
        time = 1.0
        for _ in range(self.num_steps):
            v_t = self.denoise_step(state_emb, x_t, time)
            x_t = x_t + dt * v_t
            time += dt
        return x_t, {}


class Pi05VLAFacade:
    """rpent.robots.components.pi05_vla_server.Pi05VLAFacade, reduced (model passed in, no RPC)."""
    def __init__(self, model):
        self._model = model.eval()
        self._inference_context = torch.no_grad

    def predict(self, observation, options=None):
        options = options or {}
        env_obs = dict(observation)
        env_obs["states"] = np.asarray(env_obs.get("states"), dtype=np.float32)
        with self._inference_context():
            actions, _ = self._model.predict_action_batch(
                env_obs,
                mode=options.get("mode", "eval"),
            )
        return actions.detach().cpu().numpy().astype(np.float32)


facade = Pi05VLAFacade(OpenPi0ForRLActionPrediction())
observation = {
    "main_images": np.zeros((1, 224, 224, 3), dtype=np.uint8),
    "states": np.zeros((1, 8)),
    "task_descriptions": ["pick up the black bowl and place it on the plate"],
}
'''
CELL = '''
actions = facade.predict(observation)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype", "expected scalar type")
CULPRITS = ["facade"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        with self._inference_context():\n"
    "            actions, _ = self._model.predict_action_batch(\n",
    "        device_type = next(self._model.parameters()).device.type\n"
    "        with torch.inference_mode(), torch.autocast(device_type=device_type, dtype=torch.bfloat16):\n"
    "            actions, _ = self._model.predict_action_batch(\n",
)
CLEAN = False
