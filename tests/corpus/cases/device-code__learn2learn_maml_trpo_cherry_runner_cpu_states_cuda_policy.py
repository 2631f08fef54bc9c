"""learn2learn maml_trpo.py with cuda=1: cherry's Torch env wrapper hands CPU states to the policy clone on the GPU.

Source: https://github.com/learnables/learn2learn/pull/162
"If example maml_trpo.py is run with cuda following error occurs": `main(cuda=1)` moves the
`DiagNormalPolicy` to 'cuda', but `task = ch.envs.Runner(env)` / `task.run(clone, episodes=adapt_bsz)`
feeds `self._current_state`, a tensor that `ch.envs.Torch` builds on the CPU from the gym
observation, straight into `DiagNormalPolicy.density` -> `self.mean(state)`. The PR moved the state
to the policy's device inside the policy. Stand-in: the example's `DiagNormalPolicy`, minimal cherry
`Torch` / `Runner` and a numpy half-cheetah-direction env whose `step` ignores the action's values
(the real one sends them to MuJoCo), `l2l.algorithms.MAML.clone` as a deep copy, no TRPO update, distribution argument validation off.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import copy
import math
import numpy as np
import torch as th
from torch import nn
from torch.distributions import Normal

EPSILON = 1e-6
Normal.set_default_validate_args(False)   # the simulator cannot check distribution constraints

def linear_init(module):
    if isinstance(module, nn.Linear):
        nn.init.xavier_uniform_(module.weight)
        module.bias.data.zero_()
    return module

class DiagNormalPolicy(nn.Module):
    def __init__(self, input_size, output_size, hiddens=None):
        super(DiagNormalPolicy, self).__init__()
        if hiddens is None:
            hiddens = [100, 100]
        layers = [linear_init(nn.Linear(input_size, hiddens[0])), nn.ReLU()]
        for i, o in zip(hiddens[:-1], hiddens[1:]):
            layers.append(linear_init(nn.Linear(i, o)))
            layers.append(nn.ReLU())
        layers.append(linear_init(nn.Linear(hiddens[-1], output_size)))
        self.mean = nn.Sequential(*layers)
        self.sigma = nn.Parameter(th.Tensor(output_size))
        self.sigma.data.fill_(math.log(1))

    def density(self, state):
        loc = self.mean(state)
        scale = th.exp(th.clamp(self.sigma, min=math.log(EPSILON)))
        return Normal(loc=loc, scale=scale)

    def forward(self, state):
        density = self.density(state)
        action = density.sample()
        return action

class HalfCheetahForwardBackwardEnv:
    state_size, action_size = 20, 6

    def __init__(self):
        self.rng = np.random.RandomState(42)
        self.t = 0

    def sample_tasks(self, num_tasks):
        return [{"direction": float(d)} for d in self.rng.choice([-1.0, 1.0], size=num_tasks)]

    def set_task(self, task):
        self.goal_direction = task["direction"]

    def reset(self):
        self.t = 0
        return self.rng.randn(self.state_size)

    def step(self, action):
        self.t += 1
        return self.rng.randn(self.state_size), self.goal_direction * 0.1, self.t >= 5, {}

class Torch:                                   # cherry.envs.Torch
    def __init__(self, env):
        self.env = env
        self.state_size, self.action_size = env.state_size, env.action_size

    def _convert_state(self, state):
        return th.from_numpy(np.asarray(state, dtype=np.float32)).unsqueeze(0)

    def sample_tasks(self, n):
        return self.env.sample_tasks(n)

    def set_task(self, task):
        self.env.set_task(task)

    def reset(self):
        return self._convert_state(self.env.reset())

    def step(self, action):
        state, reward, done, info = self.env.step(action)   # action.cpu().numpy() for gym
        return self._convert_state(state), reward, done, info

class Runner:                                  # cherry.envs.Runner
    def __init__(self, env):
        self.env = env
        self._needs_reset = True
        self._current_state = None

    def reset(self):
        self._current_state = self.env.reset()
        self._needs_reset = False

    def run(self, get_action, episodes):
        replay = []
        completed = 0
        while completed < episodes:
            if self._needs_reset:
                self.reset()
            action = get_action(self._current_state)
            state, reward, done, info = self.env.step(action)
            replay.append((self._current_state, action, reward, state, done))
            self._current_state = state
            if done:
                completed += 1
                self._needs_reset = True
        return replay

class MAML(nn.Module):                         # l2l.algorithms.MAML
    def __init__(self, model, lr, first_order=False):
        super().__init__()
        self.module, self.lr, self.first_order = model, lr, first_order

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def clone(self):
        return MAML(copy.deepcopy(self.module), lr=self.lr, first_order=self.first_order)

adapt_lr, meta_bsz, adapt_bsz, cuda = 0.1, 2, 2, 1
env = Torch(HalfCheetahForwardBackwardEnv())
policy = DiagNormalPolicy(env.state_size, env.action_size)
if cuda:
    policy.to("cuda:0")            # policy.to('cuda')
maml = MAML(policy, lr=adapt_lr)
'''
CELL = '''
for i, task_config in enumerate(env.sample_tasks(meta_bsz)):
    clone = maml.clone()
    env.set_task(task_config)
    env.reset()
    task = Runner(env)
    train_episodes = task.run(clone, episodes=adapt_bsz)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["task"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("loc = self.mean(state)", "loc = self.mean(state.to(self.sigma.device))")
CLEAN = False
