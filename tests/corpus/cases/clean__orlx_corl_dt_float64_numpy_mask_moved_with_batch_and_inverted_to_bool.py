"""Look-alike: CORL Decision Transformer training step: the numpy batch (float32 states, int64 time steps, a float64 padding mask) is moved to the device in one list comprehension, and the mask is turned into a bool `padding_mask`.

Source: https://github.com/tinkoff-ai/CORL (algorithms/offline/dt.py: load_d4rl_trajectories,
SequenceDataset.__prepare_sample, TransformerBlock, DecisionTransformer and the loop in train)
Trajectories are stored as float32 numpy arrays (`np.array(v, dtype=np.float32)`), states are
normalised with the dataset's numpy mean/std, `time_steps` is an int64 `np.arange` and the mask is
`np.hstack([np.ones(...), np.zeros(...)])`, i.e. float64. The loop does
`states, actions, returns, time_steps, mask = [b.to(config.device) for b in batch]`, then
`padding_mask = ~mask.to(torch.bool)` for `nn.MultiheadAttention`, and weights the float32 loss with
the float64 mask (type promotion, no error); the causal mask is a registered buffer and follows the
model. Stand-ins: `load_d4rl_trajectories` reads an in-memory D4RL-style dict instead of
`gym.make(env_name).get_dataset()`, the DataLoader over the IterableDataset is replaced by
`default_collate` of its samples, and the model is smaller. The GPU is simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import random
from collections import defaultdict
from typing import Optional
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import IterableDataset, default_collate

device = torch.device("meta")   # config.device, the GPU simulated with meta


def pad_along_axis(arr, pad_to, axis=0, fill_value=0.0):
    pad_size = pad_to - arr.shape[axis]
    if pad_size <= 0:
        return arr
    npad = [(0, 0)] * arr.ndim
    npad[axis] = (0, pad_size)
    return np.pad(arr, pad_width=npad, mode="constant", constant_values=fill_value)


def discounted_cumsum(x, gamma):
    cumsum = np.zeros_like(x)
    cumsum[-1] = x[-1]
    for t in reversed(range(x.shape[0] - 1)):
        cumsum[t] = x[t] + gamma * cumsum[t + 1]
    return cumsum


def load_d4rl_trajectories(dataset, gamma=1.0):
    traj, traj_len = [], []
    data_ = defaultdict(list)
    for i in range(dataset["rewards"].shape[0]):
        data_["observations"].append(dataset["observations"][i])
        data_["actions"].append(dataset["actions"][i])
        data_["rewards"].append(dataset["rewards"][i])
        if dataset["terminals"][i] or dataset["timeouts"][i]:
            episode_data = {k: np.array(v, dtype=np.float32) for k, v in data_.items()}
            episode_data["returns"] = discounted_cumsum(episode_data["rewards"], gamma=gamma)
            traj.append(episode_data)
            traj_len.append(episode_data["actions"].shape[0])
            data_ = defaultdict(list)
    info = {
        "obs_mean": dataset["observations"].mean(0, keepdims=True),
        "obs_std": dataset["observations"].std(0, keepdims=True) + 1e-6,
        "traj_lens": np.array(traj_len),
    }
    return traj, info


class SequenceDataset(IterableDataset):
    def __init__(self, d4rl_dataset, seq_len=10, reward_scale=1.0):
        self.dataset, info = load_d4rl_trajectories(d4rl_dataset, gamma=1.0)
        self.reward_scale = reward_scale
        self.seq_len = seq_len
        self.state_mean = info["obs_mean"]
        self.state_std = info["obs_std"]
        self.sample_prob = info["traj_lens"] / info["traj_lens"].sum()

    def __prepare_sample(self, traj_idx, start_idx):
        traj = self.dataset[traj_idx]
        states = traj["observations"][start_idx: start_idx + self.seq_len]
        actions = traj["actions"][start_idx: start_idx + self.seq_len]
        returns = traj["returns"][start_idx: start_idx + self.seq_len]
        time_steps = np.arange(start_idx, start_idx + self.seq_len)

        states = (states - self.state_mean) / self.state_std
        returns = returns * self.reward_scale
        mask = np.hstack([np.ones(states.shape[0]), np.zeros(self.seq_len - states.shape[0])])
        if states.shape[0] < self.seq_len:
            states = pad_along_axis(states, pad_to=self.seq_len)
            actions = pad_along_axis(actions, pad_to=self.seq_len)
            returns = pad_along_axis(returns, pad_to=self.seq_len)
        return states, actions, returns, time_steps, mask

    def __iter__(self):
        while True:
            traj_idx = np.random.choice(len(self.dataset), p=self.sample_prob)
            start_idx = random.randint(0, self.dataset[traj_idx]["rewards"].shape[0] - 1)
            yield self.__prepare_sample(traj_idx, start_idx)


class TransformerBlock(nn.Module):
    def __init__(self, seq_len, embedding_dim, num_heads, attention_dropout, residual_dropout):
        super().__init__()
        self.norm1 = nn.LayerNorm(embedding_dim)
        self.norm2 = nn.LayerNorm(embedding_dim)
        self.drop = nn.Dropout(residual_dropout)
        self.attention = nn.MultiheadAttention(embedding_dim, num_heads, attention_dropout, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(embedding_dim, 4 * embedding_dim), nn.GELU(),
                                 nn.Linear(4 * embedding_dim, embedding_dim), nn.Dropout(residual_dropout))
        self.register_buffer("causal_mask", ~torch.tril(torch.ones(seq_len, seq_len)).to(bool))
        self.seq_len = seq_len

    def forward(self, x, padding_mask: Optional[torch.Tensor] = None):
        causal_mask = self.causal_mask[: x.shape[1], : x.shape[1]]
        norm_x = self.norm1(x)
        attention_out = self.attention(query=norm_x, key=norm_x, value=norm_x, attn_mask=causal_mask,
                                       key_padding_mask=padding_mask, need_weights=False)[0]
        x = x + self.drop(attention_out)
        x = x + self.mlp(self.norm2(x))
        return x


class DecisionTransformer(nn.Module):
    def __init__(self, state_dim, action_dim, seq_len=10, episode_len=1000, embedding_dim=64,
                 num_layers=2, num_heads=4, attention_dropout=0.1, residual_dropout=0.1,
                 embedding_dropout=0.1, max_action=1.0):
        super().__init__()
        self.emb_drop = nn.Dropout(embedding_dropout)
        self.emb_norm = nn.LayerNorm(embedding_dim)
        self.out_norm = nn.LayerNorm(embedding_dim)
        self.timestep_emb = nn.Embedding(episode_len + seq_len, embedding_dim)
        self.state_emb = nn.Linear(state_dim, embedding_dim)
        self.action_emb = nn.Linear(action_dim, embedding_dim)
        self.return_emb = nn.Linear(1, embedding_dim)
        self.blocks = nn.ModuleList([
            TransformerBlock(3 * seq_len, embedding_dim, num_heads, attention_dropout, residual_dropout)
            for _ in range(num_layers)])
        self.action_head = nn.Sequential(nn.Linear(embedding_dim, action_dim), nn.Tanh())
        self.seq_len, self.embedding_dim, self.max_action = seq_len, embedding_dim, max_action

    def forward(self, states, actions, returns_to_go, time_steps, padding_mask=None):
        batch_size, seq_len = states.shape[0], states.shape[1]
        time_emb = self.timestep_emb(time_steps)
        state_emb = self.state_emb(states) + time_emb
        act_emb = self.action_emb(actions) + time_emb
        returns_emb = self.return_emb(returns_to_go.unsqueeze(-1)) + time_emb
        sequence = (torch.stack([returns_emb, state_emb, act_emb], dim=1)
                    .permute(0, 2, 1, 3).reshape(batch_size, 3 * seq_len, self.embedding_dim))
        if padding_mask is not None:
            padding_mask = (torch.stack([padding_mask, padding_mask, padding_mask], dim=1)
                            .permute(0, 2, 1).reshape(batch_size, 3 * seq_len))
        out = self.emb_norm(sequence)
        out = self.emb_drop(out)
        for block in self.blocks:
            out = block(out, padding_mask=padding_mask)
        out = self.out_norm(out)
        return self.action_head(out[:, 1::3]) * self.max_action


rng = np.random.default_rng(0)
n, state_dim, action_dim = 3000, 11, 3
d4rl_dataset = {
    "observations": rng.standard_normal((n, state_dim)).astype(np.float32),
    "actions": rng.uniform(-1, 1, (n, action_dim)).astype(np.float32),
    "rewards": rng.random(n).astype(np.float32),
    "terminals": np.zeros(n, dtype=bool),
    "timeouts": (np.arange(n) % 300) == 299,
}
dataset = SequenceDataset(d4rl_dataset, seq_len=20, reward_scale=0.001)
trainloader_iter = iter(dataset)
model = DecisionTransformer(state_dim=state_dim, action_dim=action_dim, seq_len=20, episode_len=1000).to(device)
optim = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=1e-4, betas=(0.9, 0.999))
'''
CELL = '''
batch = default_collate([next(trainloader_iter) for _ in range(32)])
states, actions, returns, time_steps, mask = [b.to(device) for b in batch]
# True value indicates that the corresponding key value will be ignored
padding_mask = ~mask.to(torch.bool)

predicted_actions = model(
    states=states,
    actions=actions,
    returns_to_go=returns,
    time_steps=time_steps,
    padding_mask=padding_mask,
)
loss = F.mse_loss(predicted_actions, actions.detach(), reduction="none")
loss = (loss * mask.unsqueeze(-1)).mean()
optim.zero_grad()
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
