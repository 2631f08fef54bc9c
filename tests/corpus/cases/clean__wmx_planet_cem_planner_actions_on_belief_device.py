"""Look-alike: PlaNet's CEM planner builds its action distribution on the belief's device, not the default CPU.

Source: https://github.com/Kaixhin/PlaNet/blob/master/planner.py
`MPCPlanner.forward` creates `action_mean`/`action_std_dev` with `torch.zeros(..., device=belief.device)`
and samples candidates with `torch.randn(..., device=action_mean.device)`, so a planner built with
no device of its own works next to a transition/reward model on the GPU. Stand-ins: a Linear
deterministic transition (no GRU cell, which fake cuda cannot run) and a Linear reward model; the
top-k refit keeps PlaNet's structure but re-weights with the top-k returns instead of fancy indexing.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TransitionModel(nn.Module):
    def __init__(self, belief_size=32, state_size=16, action_size=4):
        super().__init__()
        self.fc_belief = nn.Linear(belief_size + state_size + action_size, belief_size)
        self.fc_state = nn.Linear(belief_size, state_size)

    def forward(self, state, actions, belief):
        beliefs, states = [], []
        for t in range(actions.size(0)):
            belief = torch.tanh(self.fc_belief(torch.cat([belief, state, actions[t]], dim=1)))
            state = self.fc_state(belief)
            beliefs.append(belief)
            states.append(state)
        return torch.stack(beliefs), torch.stack(states)

class RewardModel(nn.Module):
    def __init__(self, belief_size=32, state_size=16):
        super().__init__()
        self.fc = nn.Linear(belief_size + state_size, 1)

    def forward(self, belief, state):
        return self.fc(torch.cat([belief, state], dim=1)).squeeze(dim=1)

class MPCPlanner(nn.Module):
    def __init__(self, action_size, planning_horizon, optimisation_iters, candidates, top_candidates,
                 transition_model, reward_model):
        super().__init__()
        self.transition_model, self.reward_model = transition_model, reward_model
        self.action_size = action_size
        self.planning_horizon = planning_horizon
        self.optimisation_iters = optimisation_iters
        self.candidates, self.top_candidates = candidates, top_candidates

    def forward(self, belief, state):
        B, H, Z = belief.size(0), belief.size(1), state.size(1)
        belief = belief.unsqueeze(dim=1).expand(B, self.candidates, H).reshape(-1, H)
        state = state.unsqueeze(dim=1).expand(B, self.candidates, Z).reshape(-1, Z)
        action_mean = torch.zeros(self.planning_horizon, B, 1, self.action_size, device=belief.device)
        action_std_dev = torch.ones(self.planning_horizon, B, 1, self.action_size, device=belief.device)
        for _ in range(self.optimisation_iters):
            noise = torch.randn(self.planning_horizon, B, self.candidates, self.action_size, device=action_mean.device)
            actions = (action_mean + action_std_dev * noise).view(self.planning_horizon, B * self.candidates, self.action_size)
            beliefs, states = self.transition_model(state, actions, belief)
            returns = self.reward_model(beliefs.view(-1, H), states.view(-1, Z)).view(self.planning_horizon, -1).sum(dim=0)
            top_returns, _ = returns.reshape(B, self.candidates).topk(self.top_candidates, dim=1)
            weights = (returns.reshape(B, self.candidates) >= top_returns.min(dim=1, keepdim=True).values).float()
            weights = (weights / weights.sum(dim=1, keepdim=True)).view(1, B, self.candidates, 1)
            cand = actions.view(self.planning_horizon, B, self.candidates, self.action_size)
            action_mean = (weights * cand).sum(dim=2, keepdim=True)
            action_std_dev = ((weights * (cand - action_mean) ** 2).sum(dim=2, keepdim=True) + 1e-6).sqrt()
        return action_mean.squeeze(dim=2).mean(dim=0)

device = torch.device("cuda:0")
transition_model = TransitionModel().to(device)
reward_model = RewardModel().to(device)
planner = MPCPlanner(4, planning_horizon=6, optimisation_iters=3, candidates=50, top_candidates=5,
                     transition_model=transition_model, reward_model=reward_model)
belief = torch.zeros(1, 32, device=device)
posterior_state = torch.zeros(1, 16, device=device)
'''
CELL = '''
with torch.no_grad():
    action = planner(belief, posterior_state)
action = action + 0.3 * torch.randn_like(action)     # exploration noise
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
