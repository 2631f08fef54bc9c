"""Look-alike: LeRobot ACT's temporal ensembler keeps its weights as plain CPU tensors, outside `policy.to()`, and moves them in `update()`.

Source: https://github.com/huggingface/lerobot/blob/7427f31801f944f5ec9ce53cda02862ce7d1638b/src/lerobot/policies/act/modeling_act.py
`ACTTemporalEnsembler` is a plain object held by `ACTPolicy` (not an `nn.Module`), so `policy.to("cuda")`
never sees `ensemble_weights` / `ensemble_weights_cumsum`, built on the CPU with `torch.exp(... torch.arange)`.
`update()` re-homes them first (`self.ensemble_weights.to(device=actions.device)`), creates the per-step
counts on the actions' device and indexes the weights with those long counts. The online average over two
successive action chunks therefore runs on the GPU. Stand-ins: ACTPolicy reduced to `select_action` with a
small action head; `ACTTemporalEnsembler` is copied from the file. SIM "meta" (meta plays the GPU) because
the fake-CUDA mode cannot run the long-index gathers.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn, Tensor


class ACTTemporalEnsembler:
    def __init__(self, temporal_ensemble_coeff: float, chunk_size: int) -> None:
        self.chunk_size = chunk_size
        self.ensemble_weights = torch.exp(-temporal_ensemble_coeff * torch.arange(chunk_size))
        self.ensemble_weights_cumsum = torch.cumsum(self.ensemble_weights, dim=0)
        self.reset()

    def reset(self):
        self.ensembled_actions = None
        self.ensembled_actions_count = None

    def update(self, actions: Tensor) -> Tensor:
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


class ACTPolicy(nn.Module):
    """lerobot ACTPolicy, reduced: a linear head stands in for the ACT transformer."""
    def __init__(self, state_dim=14, action_dim=14, chunk_size=10, temporal_ensemble_coeff=0.01):
        super().__init__()
        self.chunk_size, self.action_dim = chunk_size, action_dim
        self.model = nn.Linear(state_dim, chunk_size * action_dim)
        self.temporal_ensembler = ACTTemporalEnsembler(temporal_ensemble_coeff, chunk_size)

    def predict_action_chunk(self, batch):
        out = self.model(batch["observation.state"])
        return out.view(-1, self.chunk_size, self.action_dim)

    @torch.no_grad()
    def select_action(self, batch):
        self.eval()
        actions = self.predict_action_chunk(batch)
        return self.temporal_ensembler.update(actions)


device = torch.device("meta")   # SIM "meta": meta stands in for the GPU
policy = ACTPolicy().to(device)
policy.temporal_ensembler.reset()
'''
CELL = '''
for step in range(3):
    batch = {"observation.state": torch.randn(1, 14, device=device)}
    action = policy.select_action(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
