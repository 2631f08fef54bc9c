"""LightZero UniZero on vector observations: the padding batch for the previous observation is built as `torch.long`.

Source: https://github.com/opendilab/LightZero/pull/412
"fix pad dtype bug": `initialize_pad_batch(observation_shape, batch_size, device, pad_token_id=0)`
returned `torch.full(shape, fill_value=pad_token_id, dtype=torch.long, ...)`; the collect policy
stores it as the "last observation" of each env at reset, and with vector observations
(`obs_type='vector'`) it goes straight into the MLP representation network, whose weights are float32.
The PR returns a float32 pad batch when `pad_token_id == 0` (long only for text token ids).
Stand-ins: `initialize_pad_batch`, an MLP representation network and a collect policy whose
`_reset_collect` builds the pad batch and whose `_forward_collect` encodes last and current obs.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def initialize_pad_batch(observation_shape, batch_size, device, pad_token_id=0):
    if isinstance(observation_shape, int):
        shape = [batch_size, observation_shape]
    else:
        shape = [batch_size, *observation_shape]
    return torch.full(shape, fill_value=pad_token_id, dtype=torch.long, device=device)

class RepresentationNetworkMLP(nn.Module):
    def __init__(self, observation_shape, hidden_channels=64):
        super().__init__()
        self.fc_representation = nn.Sequential(nn.Linear(observation_shape, hidden_channels), nn.LayerNorm(hidden_channels),
                                               nn.GELU(), nn.Linear(hidden_channels, hidden_channels))

    def forward(self, x):
        return self.fc_representation(x)

class UniZeroModel(nn.Module):
    def __init__(self, observation_shape, action_space_size):
        super().__init__()
        self.representation_network = RepresentationNetworkMLP(observation_shape)
        self.policy_head = nn.Linear(2 * 64, action_space_size)

    def initial_inference(self, last_obs, cur_obs):
        z_last = self.representation_network(last_obs)
        z_cur = self.representation_network(cur_obs)
        return self.policy_head(torch.cat([z_last, z_cur], dim=-1))

class UniZeroPolicy:
    def __init__(self, model, observation_shape, env_num, device="cpu"):
        self._collect_model = model
        self.observation_shape, self.env_num, self.device = observation_shape, env_num, device

    def _reset_collect(self):
        self.last_batch_obs = initialize_pad_batch(self.observation_shape, self.env_num, self.device)

    @torch.no_grad()
    def _forward_collect(self, data):
        policy_logits = self._collect_model.initial_inference(self.last_batch_obs, data)
        self.last_batch_obs = data
        return policy_logits.argmax(-1)

observation_shape, env_num = 8, 4                   # e.g. cartpole/lunarlander vector obs
policy = UniZeroPolicy(UniZeroModel(observation_shape, 2), observation_shape, env_num)
obs = torch.randn(env_num, observation_shape)
'''
CELL = '''
policy._reset_collect()
actions = policy._forward_collect(obs)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "expected m1 and m2")
CULPRITS = ["policy"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.full(shape, fill_value=pad_token_id, dtype=torch.long, device=device)",
                  "return torch.full(shape, fill_value=pad_token_id, dtype=torch.float32, device=device)")
CLEAN = False
