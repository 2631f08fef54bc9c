"""Isaac Lab policy-inference tutorial: the exported policy loads on the CPU while the environment runs on the GPU.

Source: https://github.com/isaac-sim/IsaacLab/pull/2250
"The model in the policy inference tutorial needs to be moved to the correct device based on the
command line argument input. Otherwise, it will cause device mismatch errors as policy defaults to
the CPU while environment defaults to GPU." The tutorial does `policy = torch.jit.load(file)` and
then `action = policy(obs["policy"])` with observations from a `ManagerBasedRLEnv` whose
`sim.device` is `args_cli.device` (cuda:0). Stand-ins: the TorchScript policy as a plain MLP and a
tiny env returning an obs dict on its device; the fix in the PR passes the device when loading.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

args_cli = SimpleNamespace(device="cuda:0", checkpoint="policy.pt")

class ManagerBasedRLEnv:
    def __init__(self, cfg):
        self.device = torch.device(cfg.sim.device)
        self.num_obs, self.num_actions = 69, 19
    def reset(self):
        return {"policy": torch.zeros(1, self.num_obs).to(self.device)}, {}
    def step(self, action):
        obs = {"policy": torch.randn(1, self.num_obs).to(self.device) + action.sum()}
        rew = torch.zeros(1).to(self.device)
        return obs, rew, rew.bool(), rew.bool(), {}

def load_policy(path):
    """torch.jit.load(file): an exported actor MLP, restored on the CPU."""
    return nn.Sequential(nn.Linear(69, 128), nn.ELU(), nn.Linear(128, 128), nn.ELU(), nn.Linear(128, 19)).eval()

policy = load_policy(args_cli.checkpoint)
env_cfg = SimpleNamespace(sim=SimpleNamespace(device=args_cli.device))   # H1RoughEnvCfg_PLAY()
env = ManagerBasedRLEnv(cfg=env_cfg)
obs, _ = env.reset()
'''
CELL = '''
for _ in range(3):
    action = policy(obs["policy"])
    obs, _, _, _, _ = env.step(action)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy"]
FIX = "namespace"
REFERENCE_FIX = '''
policy = policy.to(args_cli.device)
'''
REFERENCE_EDIT = None
CLEAN = False
