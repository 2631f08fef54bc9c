"""Decision Transformer on cuda: `TrajectoryDataset.return_tensors` calls `s.to(device=...)` on tensor trajectories and drops the result.

Source: https://github.com/jbloomAus/DecisionTransformerInterpretability/pull/5
"Running run_decision_transformer.py with the --cuda option caused an error as not all tensors
where moved to the correct device during training". The PR's commit "make sure all tensors are on
the correct device" changes `s.to(dtype=t.float32, device=self.device)` to
`s = s.to(...)` (and the same for `a`, `r`, `rtg`) in `TrajectoryDataset.return_tensors`: the
trajectories are torch tensors (`t.tensor_split` of the loaded observations and actions), so only
the numpy branches (padded slices) reached the device and the states went to the GPU model from
the CPU. Stand-ins: the dataset loads an in-memory trajectory dict instead of a pickle file
(MiniGrid "index" observations, `max_len = n_ctx // 3 = 1`, so no slice is padded; rewards and
dones are split with numpy, which the simulated device needs, so `r` takes the numpy branch),
`get_traj` without state normalisation, and a small decision transformer (state/return/time
embeddings, a TransformerEncoder and an action head); batches are collated with `default_collate`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import random
import numpy as np
import torch as t
from torch import nn
from torch.utils.data import Dataset, default_collate


class TrajectoryDataset(Dataset):
    def __init__(self, data, max_len=1, prob_go_from_end=0, rtg_scale=1, device="cpu"):
        self.max_len = max_len
        self.prob_go_from_end = prob_go_from_end
        self.rtg_scale = rtg_scale
        self.device = device
        self.load_trajectories(data)

    def load_trajectories(self, data):
        observations = t.tensor(np.array(data["observations"]))      # (steps, h, w, c)
        actions = t.tensor(np.array(data["actions"]))
        rewards = np.array(data["rewards"])
        dones = np.array(data["dones"])
        done_indices = (np.where(dones)[0] + 1).tolist()
        self.states = [s for s in t.tensor_split(observations, done_indices) if len(s)]
        self.actions = [a for a in t.tensor_split(actions, done_indices) if len(a)]
        self.rewards = [r for r in np.split(rewards, done_indices) if len(r)]
        self.dones = [d for d in np.split(dones, done_indices) if len(d)]
        self.state_dim = list(self.states[0][0].shape)
        self.act_dim = list(self.actions[0][0].shape)
        self.state_mean, self.state_std = 0, 1

    def __len__(self):
        return sum(len(s) for s in self.states)

    def __getitem__(self, idx):
        return self.get_traj(random.randrange(len(self.states)), self.max_len, self.prob_go_from_end)

    def discount_cumsum(self, x, gamma):
        discount_cumsum = np.zeros_like(x)
        discount_cumsum[-1] = x[-1]
        for time in reversed(range(x.shape[0] - 1)):
            discount_cumsum[time] = x[time] + gamma * discount_cumsum[time + 1]
        return discount_cumsum

    def add_padding(self, tokens, padding_token, padding_required):
        if padding_required > 0:
            return np.concatenate([np.ones((1, padding_required, *tokens.shape[2:])) * padding_token,
                                   tokens], axis=1)
        return tokens

    def get_traj(self, traj_index, max_len=100, prob_go_from_end=None):
        traj_rewards = self.rewards[traj_index]
        traj_states = self.states[traj_index]
        traj_actions = self.actions[traj_index]
        traj_dones = self.dones[traj_index]

        si = random.randint(0, traj_rewards.shape[0] - 1)
        if prob_go_from_end is not None and random.random() < prob_go_from_end:
            si = max(0, traj_rewards.shape[0] - max_len)

        s = traj_states[si:si + max_len].reshape(1, -1, *self.state_dim)
        a = traj_actions[si:si + max_len].reshape(1, -1, *self.act_dim)
        r = traj_rewards[si:si + max_len].reshape(1, -1, 1)
        d = traj_dones[si:si + max_len].reshape(1, -1)
        rtg = self.discount_cumsum(traj_rewards[si:], gamma=1.)[:s.shape[1] + 1].reshape(1, -1, 1)
        ti = np.arange(si, si + s.shape[1]).reshape(1, -1)
        if rtg.shape[1] <= s.shape[1]:
            rtg = np.concatenate([rtg, np.zeros((1, 1, 1))], axis=1)

        tlen = s.shape[1]
        padding_required = max_len - tlen
        s = self.add_padding(s, 0, padding_required)
        a = self.add_padding(a, -10, padding_required)
        r = self.add_padding(r, 0, padding_required)
        d = self.add_padding(d, 2, padding_required)
        rtg = self.add_padding(rtg, 0, padding_required)
        ti = self.add_padding(ti, 0, padding_required)
        m = self.add_padding(np.ones((1, tlen)), 0, padding_required)

        s = (s - self.state_mean) / self.state_std
        rtg = rtg / self.rtg_scale
        return self.return_tensors(s, a, r, rtg, d, ti, m)

    def return_tensors(self, s, a, r, rtg, d, timesteps, mask):
        if isinstance(s, t.Tensor):
            s.to(dtype=t.float32, device=self.device)
        else:
            s = t.from_numpy(s).to(dtype=t.float32, device=self.device)
        if isinstance(a, t.Tensor):
            a.to(dtype=t.long, device=self.device)
        else:
            a = t.from_numpy(a).to(dtype=t.long, device=self.device)
        if isinstance(r, t.Tensor):
            r.to(dtype=t.float32, device=self.device)
        else:
            r = t.from_numpy(r).to(dtype=t.float32, device=self.device)
        if isinstance(rtg, t.Tensor):
            rtg.to(dtype=t.float32, device=self.device)
        else:
            rtg = t.from_numpy(rtg).to(dtype=t.float32, device=self.device)

        if isinstance(d, t.Tensor):
            d = d.to(dtype=t.bool, device=self.device)
        else:
            d = t.from_numpy(d).to(dtype=t.bool, device=self.device)
        timesteps = t.from_numpy(timesteps).to(dtype=t.long, device=self.device)
        mask = t.from_numpy(mask).to(dtype=t.bool, device=self.device)

        return (s.squeeze(0), a.squeeze(0), r.squeeze(0), d.squeeze(0), rtg.squeeze(0),
                timesteps.squeeze(0), mask.squeeze(0))


class DecisionTransformer(nn.Module):
    def __init__(self, state_dim, n_actions, d_model=64, n_heads=2, n_layers=1, max_timestep=1000):
        super().__init__()
        self.state_embedding = nn.Linear(int(np.prod(state_dim)), d_model, bias=False)
        self.action_embedding = nn.Embedding(n_actions + 1, d_model)
        self.reward_embedding = nn.Linear(1, d_model, bias=False)
        self.time_embedding = nn.Embedding(max_timestep + 1, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, dropout=0.0, batch_first=True)
        self.transformer = nn.TransformerEncoder(layer, n_layers)
        self.action_predictor = nn.Linear(d_model, n_actions)

    def forward(self, states, actions, rtgs, timesteps):
        batch, block = states.shape[0], states.shape[1]
        state_emb = self.state_embedding(states.flatten(2))
        time_emb = self.time_embedding(timesteps)
        rtg_emb = self.reward_embedding(rtgs[:, :block])
        tokens = t.stack([rtg_emb + time_emb, state_emb + time_emb], dim=2).reshape(batch, 2 * block, -1)
        x = self.transformer(tokens)
        return self.action_predictor(x[:, 1::2])


rng = np.random.default_rng(0)
n_steps, n_actions = 200, 7
data = {
    "observations": rng.integers(0, 11, size=(n_steps, 7, 7, 3)).astype(np.float32),
    "actions": rng.integers(0, n_actions, size=n_steps),
    "rewards": (rng.random(n_steps) < 0.05).astype(np.float32),
    "dones": np.arange(n_steps) % 40 == 39,
}
device = t.device("cuda:0")
n_ctx = 3
trajectory_data_set = TrajectoryDataset(data, max_len=n_ctx // 3, prob_go_from_end=0.1, device=device)
model = DecisionTransformer(trajectory_data_set.state_dim, n_actions).to(device)
loss_fn = nn.CrossEntropyLoss()
'''
CELL = '''
s, a, r, d, rtg, timesteps, mask = default_collate([trajectory_data_set[i] for i in range(16)])
action_preds = model(states=s, actions=a, rtgs=rtg, timesteps=timesteps)
loss = loss_fn(action_preds[:, -1], a[:, -1].flatten().to(action_preds.device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trajectory_data_set"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        if isinstance(s, t.Tensor):
            s.to(dtype=t.float32, device=self.device)
        else:
            s = t.from_numpy(s).to(dtype=t.float32, device=self.device)
        if isinstance(a, t.Tensor):
            a.to(dtype=t.long, device=self.device)
        else:
            a = t.from_numpy(a).to(dtype=t.long, device=self.device)
        if isinstance(r, t.Tensor):
            r.to(dtype=t.float32, device=self.device)
        else:
            r = t.from_numpy(r).to(dtype=t.float32, device=self.device)
        if isinstance(rtg, t.Tensor):
            rtg.to(dtype=t.float32, device=self.device)
""", """        if isinstance(s, t.Tensor):
            s = s.to(dtype=t.float32, device=self.device)
        else:
            s = t.from_numpy(s).to(dtype=t.float32, device=self.device)
        if isinstance(a, t.Tensor):
            a = a.to(dtype=t.long, device=self.device)
        else:
            a = t.from_numpy(a).to(dtype=t.long, device=self.device)
        if isinstance(r, t.Tensor):
            r = r.to(dtype=t.float32, device=self.device)
        else:
            r = t.from_numpy(r).to(dtype=t.float32, device=self.device)
        if isinstance(rtg, t.Tensor):
            rtg = rtg.to(dtype=t.float32, device=self.device)
""")
CLEAN = False
