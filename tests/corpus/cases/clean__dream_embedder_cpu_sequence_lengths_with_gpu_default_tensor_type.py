"""Look-alike: DREAM's trajectory embedder builds its `pack_padded_sequence` lengths on the CPU while everything else is on the GPU default device.

Source: https://github.com/ezliu/dream/issues/6
Running `python3 main.py dream -b environment="miniworld_sign" ...` failed in the first episode at
`policy.act` -> `self._Q([[state]], prev_hidden_state)` -> `self._state_embedder(states, hidden_states)`
with "'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor". main.py
calls `torch.set_default_tensor_type(torch.cuda.FloatTensor)` when CUDA is available, so the
embedder's `torch.tensor([len(seq) ...]).long()` is created on the GPU and handed to
`pack_padded_sequence`. The repo's embed.py (used here) creates the lengths as CPU tensors around
that call (it switches the default tensor type back to CPU), which is what pack_padded_sequence
wants: CPU lengths with GPU embeddings are correct. Stand-ins:
the DQN's Q-network and a recurrent state embedder; `torch.set_default_device("meta")` plays the
CUDA default tensor type (the "GPU" is meta).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

torch.set_default_device("meta")     # main.py: torch.set_default_tensor_type(torch.cuda.FloatTensor)

class RecurrentStateEmbedder(nn.Module):
    def __init__(self, obs_dim, embed_dim):
        super().__init__()
        self._obs_embedder = nn.Linear(obs_dim, 64)
        self._lstm = nn.LSTM(64, embed_dim, batch_first=True)
        self.embed_dim = embed_dim

    def forward(self, states, hidden_state=None):
        # states: list of sequences of observations
        padded = nn.utils.rnn.pad_sequence([torch.stack(seq) for seq in states], batch_first=True)
        sequence_lengths = torch.tensor([len(seq) for seq in states], device='cpu').long()
        packed = nn.utils.rnn.pack_padded_sequence(
            F.relu(self._obs_embedder(padded)), sequence_lengths, batch_first=True, enforce_sorted=False)
        _, hidden_state = self._lstm(packed, hidden_state)
        return hidden_state[0][-1], hidden_state

class DuelingNetwork(nn.Module):
    def __init__(self, num_actions, state_embedder):
        super().__init__()
        self._state_embedder = state_embedder
        self._q_values = nn.Linear(state_embedder.embed_dim, num_actions)

    def forward(self, states, hidden_states=None):
        state_embedding, hidden_state = self._state_embedder(states, hidden_states)
        return self._q_values(state_embedding), hidden_state

class DQNPolicy:
    def __init__(self, Q):
        self._Q = Q
    def act(self, state, prev_hidden_state=None):
        q_values, hidden_state = self._Q([[state]], prev_hidden_state)
        return q_values.argmax(-1), hidden_state

dqn = DQNPolicy(DuelingNetwork(num_actions=3, state_embedder=RecurrentStateEmbedder(obs_dim=10, embed_dim=64)))
state = torch.randn(10)               # first observation of the episode
'''
CELL = '''
action, next_hidden_state = dqn.act(state, prev_hidden_state=None)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
