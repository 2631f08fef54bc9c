"""Look-alike: Decision Transformer evaluation step: float64 numpy state stats are moved to the device, and `get_action` builds its padding attention mask on the CPU and then moves it to the states' device.

Source: https://github.com/kzl/decision-transformer (gym/decision_transformer/evaluation/evaluate_episodes.py
evaluate_episode_rtg; gym/decision_transformer/models/decision_transformer.py forward and get_action)
`evaluate_episode_rtg` keeps the history on the device: `state_mean`/`state_std` (float64 numpy) via
`torch.from_numpy(...).to(device=device)`, the float64 MuJoCo observation via
`.to(device=device, dtype=torch.float32)`; the normalised states it passes to `get_action` are
float64 (float32 minus float64), and `get_action` pads with zeros made on `states.device`, casts
back with `.to(dtype=torch.float32)`, and builds `attention_mask = torch.cat([torch.zeros(...),
torch.ones(...)])` on the CPU, then `.to(dtype=torch.long, device=states.device)`. Stand-ins: the
GPT2Model without positional embeddings reduced to one masked self-attention block (HF's
`(1.0 - mask) * -10000.0` extended mask kept), an env whose `reset` returns a float64
observation; the loop stops before `action.detach().cpu().numpy()` and `env.step`. The GPU is
simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn


class GPT2Model(nn.Module):
    """Stand-in: one causal self-attention block over inputs_embeds, HF-style attention_mask."""

    def __init__(self, n_embd, n_head=1, n_positions=1024):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.ln_f = nn.LayerNorm(n_embd)
        self.register_buffer("bias", torch.tril(torch.ones(n_positions, n_positions, dtype=torch.bool))
                             .view(1, 1, n_positions, n_positions))

    def forward(self, inputs_embeds, attention_mask=None):
        b, t, c = inputs_embeds.shape
        q, k, v = self.c_attn(inputs_embeds).split(c, dim=2)
        q, k, v = (z.view(b, t, self.n_head, c // self.n_head).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.shape[-1])
        att = att.masked_fill(~self.bias[:, :, :t, :t], -10000.0)
        if attention_mask is not None:
            attention_mask = attention_mask.view(b, -1)[:, None, None, :]
            attention_mask = attention_mask.to(dtype=inputs_embeds.dtype)
            att = att + (1.0 - attention_mask) * -10000.0
        y = (att.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, t, c)
        return {"last_hidden_state": self.ln_f(inputs_embeds + self.c_proj(y))}


class DecisionTransformer(nn.Module):
    def __init__(self, state_dim, act_dim, hidden_size, max_length=None, max_ep_len=4096, action_tanh=True):
        super().__init__()
        self.state_dim, self.act_dim, self.max_length = state_dim, act_dim, max_length
        self.hidden_size = hidden_size
        self.transformer = GPT2Model(hidden_size)
        self.embed_timestep = nn.Embedding(max_ep_len, hidden_size)
        self.embed_return = torch.nn.Linear(1, hidden_size)
        self.embed_state = torch.nn.Linear(self.state_dim, hidden_size)
        self.embed_action = torch.nn.Linear(self.act_dim, hidden_size)
        self.embed_ln = nn.LayerNorm(hidden_size)
        self.predict_state = torch.nn.Linear(hidden_size, self.state_dim)
        self.predict_action = nn.Sequential(*([nn.Linear(hidden_size, self.act_dim)] + ([nn.Tanh()] if action_tanh else [])))
        self.predict_return = torch.nn.Linear(hidden_size, 1)

    def forward(self, states, actions, rewards, returns_to_go, timesteps, attention_mask=None):
        batch_size, seq_length = states.shape[0], states.shape[1]
        if attention_mask is None:
            attention_mask = torch.ones((batch_size, seq_length), dtype=torch.long)
        state_embeddings = self.embed_state(states)
        action_embeddings = self.embed_action(actions)
        returns_embeddings = self.embed_return(returns_to_go)
        time_embeddings = self.embed_timestep(timesteps)
        state_embeddings = state_embeddings + time_embeddings
        action_embeddings = action_embeddings + time_embeddings
        returns_embeddings = returns_embeddings + time_embeddings
        stacked_inputs = torch.stack(
            (returns_embeddings, state_embeddings, action_embeddings), dim=1
        ).permute(0, 2, 1, 3).reshape(batch_size, 3 * seq_length, self.hidden_size)
        stacked_inputs = self.embed_ln(stacked_inputs)
        stacked_attention_mask = torch.stack(
            (attention_mask, attention_mask, attention_mask), dim=1
        ).permute(0, 2, 1).reshape(batch_size, 3 * seq_length)
        transformer_outputs = self.transformer(inputs_embeds=stacked_inputs, attention_mask=stacked_attention_mask)
        x = transformer_outputs["last_hidden_state"]
        x = x.reshape(batch_size, seq_length, 3, self.hidden_size).permute(0, 2, 1, 3)
        return_preds = self.predict_return(x[:, 2])
        state_preds = self.predict_state(x[:, 2])
        action_preds = self.predict_action(x[:, 1])
        return state_preds, action_preds, return_preds

    def get_action(self, states, actions, rewards, returns_to_go, timesteps, **kwargs):
        states = states.reshape(1, -1, self.state_dim)
        actions = actions.reshape(1, -1, self.act_dim)
        returns_to_go = returns_to_go.reshape(1, -1, 1)
        timesteps = timesteps.reshape(1, -1)
        if self.max_length is not None:
            states = states[:, -self.max_length:]
            actions = actions[:, -self.max_length:]
            returns_to_go = returns_to_go[:, -self.max_length:]
            timesteps = timesteps[:, -self.max_length:]
            # pad all tokens to sequence length
            attention_mask = torch.cat([torch.zeros(self.max_length - states.shape[1]), torch.ones(states.shape[1])])
            attention_mask = attention_mask.to(dtype=torch.long, device=states.device).reshape(1, -1)
            states = torch.cat(
                [torch.zeros((states.shape[0], self.max_length - states.shape[1], self.state_dim), device=states.device), states],
                dim=1).to(dtype=torch.float32)
            actions = torch.cat(
                [torch.zeros((actions.shape[0], self.max_length - actions.shape[1], self.act_dim), device=actions.device), actions],
                dim=1).to(dtype=torch.float32)
            returns_to_go = torch.cat(
                [torch.zeros((returns_to_go.shape[0], self.max_length - returns_to_go.shape[1], 1), device=returns_to_go.device), returns_to_go],
                dim=1).to(dtype=torch.float32)
            timesteps = torch.cat(
                [torch.zeros((timesteps.shape[0], self.max_length - timesteps.shape[1]), device=timesteps.device), timesteps],
                dim=1).to(dtype=torch.long)
        else:
            attention_mask = None
        _, action_preds, return_preds = self.forward(
            states, actions, None, returns_to_go, timesteps, attention_mask=attention_mask, **kwargs)
        return action_preds[0, -1]


class HopperEnv:
    def reset(self):
        return np.random.default_rng(0).standard_normal(11)          # float64 observation


env = HopperEnv()
state_dim, act_dim, scale = 11, 3, 1000.0
rng = np.random.default_rng(1)
state_mean = rng.standard_normal(state_dim)                          # float64, from the dataset
state_std = rng.random(state_dim) + 0.5
device = "meta"                                                      # the GPU, simulated with meta
model = DecisionTransformer(state_dim, act_dim, hidden_size=128, max_length=20, max_ep_len=1000)
model.eval()
model.to(device=device)

state_mean = torch.from_numpy(state_mean).to(device=device)
state_std = torch.from_numpy(state_std).to(device=device)
state = env.reset()
states = torch.from_numpy(state).reshape(1, state_dim).to(device=device, dtype=torch.float32)
actions = torch.zeros((0, act_dim), device=device, dtype=torch.float32)
rewards = torch.zeros(0, device=device, dtype=torch.float32)
ep_return = 3600 / scale
target_return = torch.tensor(ep_return, device=device, dtype=torch.float32).reshape(1, 1)
timesteps = torch.tensor(0, device=device, dtype=torch.long).reshape(1, 1)
'''
CELL = '''
# add padding
actions = torch.cat([actions, torch.zeros((1, act_dim), device=device)], dim=0)
rewards = torch.cat([rewards, torch.zeros(1, device=device)])

action = model.get_action(
    (states.to(dtype=torch.float32) - state_mean) / state_std,
    actions.to(dtype=torch.float32),
    rewards.to(dtype=torch.float32),
    target_return.to(dtype=torch.float32),
    timesteps.to(dtype=torch.long),
)
actions[-1] = action
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
