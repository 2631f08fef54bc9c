"""skrl PPO preprocessors: `RunningStandardScaler` modules built with the agent's device keep float64 statistics there.

Source: https://github.com/Toni-SM/skrl/blob/main/skrl/resources/preprocessors/torch/running_standard_scaler.py
(used as `state_preprocessor` / `value_preprocessor` of skrl's PPO agent, skrl/agents/torch/ppo/ppo.py)
The scaler is a standalone `nn.Module` that is not part of the policy or value model, so it does not
follow their `.to()`; instead skrl constructs it with `device=...` (the runner passes the agent
device in `state_preprocessor_kwargs` / `value_preprocessor_kwargs`) and registers float64
`running_mean` / `running_variance` / `current_count` buffers there, casting with `.float()` when
standardizing. Look-alike: float64 buffers outside the models, on cuda:0 like the rollout tensors.
Stand-ins: the scaler (parse_device/space helpers reduced), a Gaussian policy mean net and a value net.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class RunningStandardScaler(nn.Module):
    def __init__(self, size, *, epsilon=1e-8, clip_threshold=5.0, device=None):
        super().__init__()
        self.epsilon = epsilon
        self.clip_threshold = clip_threshold
        self.device = torch.device(device) if device is not None else torch.device("cpu")
        self.register_buffer("running_mean", torch.zeros(size, dtype=torch.float64, device=self.device))
        self.register_buffer("running_variance", torch.ones(size, dtype=torch.float64, device=self.device))
        self.register_buffer("current_count", torch.ones((), dtype=torch.float64, device=self.device))

    def _parallel_variance(self, input_mean, input_var, input_count):
        delta = input_mean - self.running_mean
        total_count = self.current_count + input_count
        M2 = (
            (self.running_variance * self.current_count)
            + (input_var * input_count)
            + delta**2 * self.current_count * input_count / total_count
        )
        self.running_mean = self.running_mean + delta * input_count / total_count
        self.running_variance = M2 / total_count
        self.current_count = total_count

    def _compute(self, x, *, train=False, inverse=False):
        if train:
            self._parallel_variance(torch.mean(x, dim=0), torch.var(x, dim=0), x.shape[0])
        if inverse:
            return (
                torch.sqrt(self.running_variance.float())
                * torch.clamp(x, min=-self.clip_threshold, max=self.clip_threshold)
                + self.running_mean.float()
            )
        return torch.clamp(
            (x - self.running_mean.float()) / (torch.sqrt(self.running_variance.float()) + self.epsilon),
            min=-self.clip_threshold,
            max=self.clip_threshold,
        )

    def forward(self, x, *, train=False, inverse=False, no_grad=True):
        if x is None:
            return None
        with torch.no_grad():
            return self._compute(x, train=train, inverse=inverse)

device = torch.device("cuda:0")
policy = nn.Sequential(nn.Linear(17, 64), nn.ELU(), nn.Linear(64, 6)).to(device)
value = nn.Sequential(nn.Linear(17, 64), nn.ELU(), nn.Linear(64, 1)).to(device)
cfg = {
    "state_preprocessor": RunningStandardScaler,
    "state_preprocessor_kwargs": {"size": 17, "device": device},
    "value_preprocessor": RunningStandardScaler,
    "value_preprocessor_kwargs": {"size": 1, "device": device},
}
state_preprocessor = cfg["state_preprocessor"](**cfg["state_preprocessor_kwargs"])
value_preprocessor = cfg["value_preprocessor"](**cfg["value_preprocessor_kwargs"])
states = torch.randn(64, 17, device=device)      # vectorized env observations (Isaac Lab, on the GPU)
'''
CELL = '''
s = state_preprocessor(states, train=True)
actions_mean = policy(s)
values = value_preprocessor(value(s), inverse=True)
returns = values * 0.99 + 1.0
value_preprocessor(returns, train=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
