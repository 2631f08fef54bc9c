"""Look-alike: dreamer-pytorch builds the RSSM's initial state with the device and dtype of the incoming action.

Source: https://github.com/juliusfrost/dreamer-pytorch/blob/master/dreamer/models/rssm.py
`TransitionBase.initial_state(batch_size, **kwargs)` returns `RSSMState(torch.zeros(batch_size,
self._stoch_size, **kwargs), ...)`, and the rollout calls it with `device=action.device,
dtype=action.dtype`, so the zero belief/stochastic state is born on the GPU beside the model even
though the module itself stores no state tensors. Stand-ins: a Linear "GRU-less" deterministic
update (fake cuda cannot run GRUCell) and a Linear prior head; RSSMState is a namedtuple.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from collections import namedtuple

RSSMState = namedtuple("RSSMState", ["mean", "std", "stoch", "deter"])

class RSSMTransition(nn.Module):
    def __init__(self, action_size=6, stochastic_size=30, deterministic_size=200, hidden_size=200):
        super().__init__()
        self._stoch_size, self._deter_size = stochastic_size, deterministic_size
        self._rnn_input_model = nn.Sequential(nn.Linear(action_size + stochastic_size, hidden_size), nn.ELU())
        self._cell = nn.Linear(hidden_size + deterministic_size, deterministic_size)
        self._stochastic_prior_model = nn.Linear(deterministic_size, 2 * stochastic_size)

    def initial_state(self, batch_size, **kwargs):
        return RSSMState(
            torch.zeros(batch_size, self._stoch_size, **kwargs),
            torch.zeros(batch_size, self._stoch_size, **kwargs),
            torch.zeros(batch_size, self._stoch_size, **kwargs),
            torch.zeros(batch_size, self._deter_size, **kwargs),
        )

    def forward(self, prev_action, prev_state):
        rnn_input = self._rnn_input_model(torch.cat([prev_action, prev_state.stoch], dim=-1))
        deter_state = torch.tanh(self._cell(torch.cat([rnn_input, prev_state.deter], dim=-1)))
        mean, std = torch.chunk(self._stochastic_prior_model(deter_state), 2, dim=-1)
        std = nn.functional.softplus(std) + 0.1
        stoch_state = mean + std * torch.randn_like(mean)
        return RSSMState(mean, std, stoch_state, deter_state)

transition = RSSMTransition().to("cuda:0")
actions = torch.randn(15, 8, 6, device="cuda:0")       # imagined action sequence (T, B, A)
'''
CELL = '''
with torch.no_grad():
    state = transition.initial_state(actions.size(1), device=actions.device, dtype=actions.dtype)
    priors = []
    for t in range(actions.size(0)):
        state = transition(actions.select(0, t), state)
        priors.append(state.stoch)
    prior_stoch = torch.stack(priors)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
