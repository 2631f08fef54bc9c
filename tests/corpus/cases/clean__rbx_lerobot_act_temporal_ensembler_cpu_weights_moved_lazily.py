"""Look-alike: LeRobot ACT with temporal ensembling: the ensembler's exp-weights are plain CPU tensors outside the module, moved to the actions' device on every update.

Source: https://github.com/huggingface/lerobot (src/lerobot/policies/act/modeling_act.py, ACTTemporalEnsembler / ACTPolicy.select_action)
`ACTTemporalEnsembler` is a plain object, not an nn.Module: `__init__` builds
`self.ensemble_weights = torch.exp(-coeff * torch.arange(chunk_size))` and its cumsum on the CPU, so
`policy.to(device)` never moves them. `update(actions)` starts with
`self.ensemble_weights = self.ensemble_weights.to(device=actions.device)` (same for the cumsum) and builds
the count tensor on the actions' device, so ensembling during a rollout on the GPU is correct.
Stand-in: the ACT transformer reduced to a state/image encoder and an action head; the ensembler and
`select_action` as in the file. The GPU is simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn

device = torch.device("meta")   # the GPU, simulated with meta

@dataclass
class ACTConfig:
    chunk_size: int = 10
    n_action_steps: int = 1
    temporal_ensemble_coeff: float = 0.01
    state_dim: int = 14
    action_dim: int = 14
    dim_model: int = 32

class ACTTemporalEnsembler:
    def __init__(self, temporal_ensemble_coeff, chunk_size):
        self.chunk_size = chunk_size
        self.ensemble_weights = torch.exp(-temporal_ensemble_coeff * torch.arange(chunk_size))
        self.ensemble_weights_cumsum = torch.cumsum(self.ensemble_weights, dim=0)
        self.reset()

    def reset(self):
        self.ensembled_actions = None
        self.ensembled_actions_count = None

    def update(self, actions):
        self.ensemble_weights = self.ensemble_weights.to(device=actions.device)
        self.ensemble_weights_cumsum = self.ensemble_weights_cumsum.to(device=actions.device)
        if self.ensembled_actions is None:
            self.ensembled_actions = actions.clone()
            self.ensembled_actions_count = torch.ones(
                (self.chunk_size, 1), dtype=torch.long, device=self.ensembled_actions.device
            )
        else:
            self.ensembled_actions *= self.ensemble_weights_cumsum[self.ensembled_actions_count - 1]
            self.ensembled_actions += actions[:, :-1] * self.ensemble_weights[self.ensembled_actions_count]
            self.ensembled_actions /= self.ensemble_weights_cumsum[self.ensembled_actions_count]
            self.ensembled_actions_count = torch.clamp(self.ensembled_actions_count + 1, max=self.chunk_size)
            self.ensembled_actions = torch.cat([self.ensembled_actions, actions[:, -1:]], dim=1)
            self.ensembled_actions_count = torch.cat(
                [self.ensembled_actions_count, torch.ones_like(self.ensembled_actions_count[-1:])]
            )
        action, self.ensembled_actions, self.ensembled_actions_count = (
            self.ensembled_actions[:, 0],
            self.ensembled_actions[:, 1:],
            self.ensembled_actions_count[1:],
        )
        return action

class ACT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.encoder_robot_state_input_proj = nn.Linear(config.state_dim, config.dim_model)
        self.encoder_img_feat_input_proj = nn.Linear(3, config.dim_model)
        self.action_head = nn.Linear(config.dim_model, config.chunk_size * config.action_dim)

    def forward(self, batch):
        tok = self.encoder_robot_state_input_proj(batch["observation.state"])
        tok = tok + self.encoder_img_feat_input_proj(batch["observation.images.top"].flatten(2).mean(-1))
        actions = self.action_head(torch.relu(tok)).view(-1, self.config.chunk_size, self.config.action_dim)
        return actions, (None, None)

class ACTPolicy(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.model = ACT(config)
        if config.temporal_ensemble_coeff is not None:
            self.temporal_ensembler = ACTTemporalEnsembler(config.temporal_ensemble_coeff, config.chunk_size)
        self.reset()

    def reset(self):
        if self.config.temporal_ensemble_coeff is not None:
            self.temporal_ensembler.reset()

    @torch.no_grad()
    def predict_action_chunk(self, batch):
        self.eval()
        return self.model(batch)[0]

    @torch.no_grad()
    def select_action(self, batch):
        self.eval()
        if self.config.temporal_ensemble_coeff is not None:
            actions = self.predict_action_chunk(batch)
            action = self.temporal_ensembler.update(actions)
            return action

policy = ACTPolicy(ACTConfig())
policy.to(device)
policy.reset()
'''
CELL = '''
for step in range(3):
    observation = {
        "observation.state": torch.randn(1, 14),
        "observation.images.top": torch.rand(1, 3, 16, 16),
    }
    observation = {k: v.to(device, non_blocking=True) for k, v in observation.items()}
    action = policy.select_action(observation)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
