"""rlkit HER+SAC: a policy trained on the GPU is replayed without `--gpu`, so observations are built on rlkit's CPU device.

Source: https://github.com/rail-berkeley/rlkit/issues/94
"about cuda error during replay weight": after training SAC+HER on the GPU, visualising the policy
with scripts/run_goal_conditioned_policy.py failed inside `policy.get_action` -> `eval_np` ->
`fc(h)` with a device error ("Expected object of device type cuda but got device type cpu"). The
saved policy comes back from the snapshot on cuda, while `eval_np` turns the numpy observation into
a tensor with `ptu.from_numpy`, i.e. on `ptu.device`, which is the CPU unless the script is run
with `--gpu` (`ptu.set_gpu_mode(True); policy.to(ptu.device)`). Stand-in: rlkit's pytorch_util
globals, `eval_np`/`torch_ify`, and the TanhGaussianPolicy's forward (deterministic action, the
tensor returned instead of numpy).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import types
import numpy as np
import torch
import torch.nn as nn

ptu = types.SimpleNamespace(_use_gpu=False, device=torch.device("cpu"))     # rlkit.torch.pytorch_util

def set_gpu_mode(mode, gpu_id=0):
    ptu._use_gpu = mode
    ptu.device = torch.device("cuda:" + str(gpu_id) if mode else "cpu")
ptu.set_gpu_mode = set_gpu_mode
ptu.from_numpy = lambda *args, **kwargs: torch.from_numpy(*args, **kwargs).float().to(ptu.device)

def torch_ify(np_array_or_other):
    if isinstance(np_array_or_other, np.ndarray):
        return ptu.from_numpy(np_array_or_other)
    return np_array_or_other

def eval_np(module, *args, **kwargs):
    torch_args = tuple(torch_ify(x) for x in args)
    torch_kwargs = {k: torch_ify(v) for k, v in kwargs.items()}
    return module(*torch_args, **torch_kwargs)

class TanhGaussianPolicy(nn.Module):
    def __init__(self, hidden_sizes, obs_dim, action_dim):
        super().__init__()
        self.hidden_activation = torch.relu
        self.fcs = nn.ModuleList()
        in_size = obs_dim
        for next_size in hidden_sizes:
            self.fcs.append(nn.Linear(in_size, next_size))
            in_size = next_size
        self.last_fc = nn.Linear(in_size, action_dim)

    def get_action(self, obs_np, deterministic=False):
        actions = self.get_actions(obs_np.reshape(1, -1), deterministic=deterministic)
        return actions, {}

    def get_actions(self, obs_np, deterministic=False):
        return eval_np(self, obs_np, deterministic=deterministic)

    def forward(self, obs, deterministic=False):
        h = obs
        for i, fc in enumerate(self.fcs):
            h = self.hidden_activation(fc(h))
        mean = self.last_fc(h)
        return torch.tanh(mean)

# data = torch.load(args.file): the snapshot of a run trained with ptu.set_gpu_mode(True)
obs_dim, goal_dim, action_dim = 10, 3, 4
data = {"evaluation/policy": TanhGaussianPolicy([256, 256], obs_dim + goal_dim, action_dim).to("cuda:0")}
policy = data["evaluation/policy"]
print("Policy and environment loaded")
o = {"observation": np.random.randn(obs_dim), "desired_goal": np.random.randn(goal_dim)}
'''
CELL = '''
new_obs = np.hstack((o["observation"], o["desired_goal"]))
a, agent_info = policy.get_action(new_obs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy"]
FIX = "namespace"
REFERENCE_FIX = '''
policy.to(ptu.device)
'''
REFERENCE_EDIT = None
CLEAN = False
