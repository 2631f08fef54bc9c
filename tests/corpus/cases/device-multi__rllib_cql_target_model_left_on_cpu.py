"""RLlib CQL with `num_gpus=1`: the policy's model is on the GPU, its target model stayed on the CPU.

Source: https://github.com/ray-project/ray/issues/13823
CQL training raised "RuntimeError: All input tensors must be on the same device. Received cuda:0
and cpu" in the torch loss. The maintainer: the fix is in `sac_torch_policy.py::setup_late_mixins`,
"where we make sure the target model is moved to the GPU": the target Q network was built next to
the model but never given the policy's device. Stand-in: a SAC/CQL-style policy object with a
`model` and a `target_model` (two copies of one Q network) and the TD target computation.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class QModel(nn.Module):
    def __init__(self, obs_dim=11, act_dim=3, hidden=64):
        super().__init__()
        self.q_net = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.policy_net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, act_dim))

    def get_q_values(self, obs, actions):
        return self.q_net(torch.cat([obs, actions], dim=-1))

    def get_policy_output(self, obs):
        return torch.tanh(self.policy_net(obs))

class CQLTorchPolicy:
    def __init__(self, device):
        self.device = device
        self.model = QModel()
        self.target_model = QModel()                                  # ModelCatalog.get_model_v2(...)
        self.target_model.load_state_dict(self.model.state_dict())    # update_target(tau=1.0)
        self.model.to(self.device)             # TorchPolicy moves its model; nothing moved the target

device = torch.device("cuda:0")
policy = CQLTorchPolicy(device)
train_batch = {k: v.to(device) for k, v in {
    "obs": torch.randn(32, 11), "actions": torch.randn(32, 3), "rewards": torch.randn(32),
    "new_obs": torch.randn(32, 11), "dones": torch.zeros(32)}.items()}
gamma = 0.99
'''
CELL = '''
with torch.no_grad():
    next_actions = policy.model.get_policy_output(train_batch["new_obs"])
    q_tp1 = policy.target_model.get_q_values(train_batch["new_obs"], next_actions).squeeze(-1)
    q_t_target = train_batch["rewards"] + gamma * (1.0 - train_batch["dones"]) * q_tp1
q_t = policy.model.get_q_values(train_batch["obs"], train_batch["actions"]).squeeze(-1)
critic_loss = ((q_t - q_t_target) ** 2).mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy.target_model"]
FIX = "namespace"
REFERENCE_FIX = '''
policy.target_model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
