"""dreamer-pytorch with `--cuda-idx 0`: the sampled replay batch stays on the CPU while the agent's world model is on the GPU.

Source: https://github.com/juliusfrost/dreamer-pytorch/pull/38
The user passed `--cuda-idx 0` to `main.py` and the optimisation step failed: the agent (RSSM
encoder, representation, reward model) had been moved to the GPU but the `samples` namedarraytuple
drawn from the replay buffer (observation, action, reward) was still on the CPU. The maintainer
pointed to the fix: `buffer_to(samples, self.agent.device)` moves every field of the batch before
the loss. Stand-in: rlpyt's namedarraytuple as a namedtuple, `buffer_to` as a field-wise `.to`,
and a small Linear encoder / representation / reward head (no GRU, which fake cuda cannot run).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn
from collections import namedtuple

Samples = namedtuple("Samples", ["observation", "action", "reward"])

def buffer_to(buffer, device):
    return type(buffer)(*(t.to(device) for t in buffer))

class AgentModel(nn.Module):
    def __init__(self, obs_size=24, action_size=6, embed=32, stoch=16, deter=32):
        super().__init__()
        self.observation_encoder = nn.Sequential(nn.Linear(obs_size, embed), nn.ELU())
        self.representation = nn.Linear(embed + action_size, stoch + deter)
        self.reward_model = nn.Sequential(nn.Linear(stoch + deter, 32), nn.ELU(), nn.Linear(32, 1))

    def forward(self, observation, prev_action):
        embed = self.observation_encoder(observation)
        feat = self.representation(torch.cat([embed, prev_action], dim=-1))
        return self.reward_model(feat)

device = torch.device("cuda:0")                 # --cuda-idx 0
agent_model = AgentModel().to(device)
batch_T, batch_B = 10, 8
samples = Samples(observation=torch.randn(batch_T, batch_B, 24),      # replay buffer: CPU
                  action=torch.randn(batch_T, batch_B, 6),
                  reward=torch.randn(batch_T, batch_B, 1))
'''
CELL = '''
reward_pred = agent_model(samples.observation, samples.action)
reward_loss = ((reward_pred - samples.reward) ** 2).mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["samples"]
FIX = "namespace"
REFERENCE_FIX = '''
samples = buffer_to(samples, device)
'''
REFERENCE_EDIT = None
CLEAN = False
