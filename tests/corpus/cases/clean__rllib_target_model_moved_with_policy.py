"""Look-alike: a SAC/CQL-style policy whose target Q network is moved next to the model (setup_late_mixins).

Source: https://github.com/ray-project/ray/issues/13823
The maintainer's fix for the CQL device error: `sac_torch_policy.py::setup_late_mixins` "where we
make sure the target model is moved to the GPU". Model and target model both on cuda:0, the batch
too; the TD target is computed under no_grad from the target network. Nothing is misplaced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        self.target_model = QModel()
        self.target_model.load_state_dict(self.model.state_dict())
        self.model.to(self.device)
        self.setup_late_mixins()

    def setup_late_mixins(self):
        self.target_model = self.target_model.to(self.device)

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
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
