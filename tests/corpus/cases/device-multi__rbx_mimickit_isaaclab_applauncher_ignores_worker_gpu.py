"""MimicKit multi-GPU ASE training on Isaac Lab: `AppLauncher` is started without the worker's device, so the simulation data lands on cuda:0 while the worker's agent is on cuda:1.

Source: https://github.com/xbpeng/MimicKit/issues/70   (fix: PR #71)
Running ASE with `--engine_config data/engines/isaac_lab_engine.yaml --devices cuda:0 ... cuda:7` fails in the
worker processes with "RuntimeError: Expected all tensors to be on the same device, but found at least two
devices". The reporter's fix (PR #71 "Fix IsaacLab multi-GPU training data device mismatch"): in
`IsaacLabEngine._create_simulator`, `AppLauncher({"headless": not visualize})` becomes
`AppLauncher({"headless": not visualize, "device": self._device})`, so Kit and PhysX run on the worker's GPU
instead of the default cuda:0. Stand-ins: AppLauncher/SimulationContext reduced to "the Kit app's device decides
where the PhysX state tensors live", the engine's root-state view, a humanoid env building observations from it,
and the ASE agent's observation normaliser and actor on the worker's device (cuda:1, the second worker).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class AppLauncher:
    def __init__(self, launcher_args):
        self.headless = launcher_args.get("headless", True)
        self.device = launcher_args.get("device", "cuda:0")      # Kit's active GPU

class SimulationCfg:
    def __init__(self, device="cuda:0", dt=1.0 / 60.0):
        self.device, self.dt = device, dt

class SimulationContext:
    def __init__(self, cfg, app):
        self.cfg = cfg
        self.physics_device = app.device                       # PhysX tensors follow the running app

class IsaacLabEngine:
    def __init__(self, config, num_envs, device, visualize):
        self._device = device
        self._num_envs = num_envs
        self._create_simulator(config["sim_timestep"], visualize)
        self._root_state = torch.randn(num_envs, 13, device=self._sim.physics_device)
        self._dof_pos = torch.randn(num_envs, 31, device=self._sim.physics_device)

    def _create_simulator(self, sim_timestep, visualize):
        self._app_launcher = AppLauncher({"headless": not visualize})
        sim_cfg = SimulationCfg(device=self._device, dt=sim_timestep)
        self._sim = SimulationContext(sim_cfg, self._app_launcher)

    def get_root_pos(self, obj_id=0):
        return self._root_state[:, 0:3]

    def get_root_rot(self, obj_id=0):
        return self._root_state[:, 3:7]

    def get_dof_pos(self, obj_id=0):
        return self._dof_pos

class ASEHumanoidEnv:
    def __init__(self, engine):
        self._engine = engine
        self._device = engine._device

    def reset(self):
        root_pos = self._engine.get_root_pos()
        root_rot = self._engine.get_root_rot()
        dof_pos = self._engine.get_dof_pos()
        obs = torch.cat([root_pos[:, 2:3], root_rot, dof_pos], dim=-1)
        return obs, {}

class Normalizer(nn.Module):
    def __init__(self, shape, device):
        super().__init__()
        self.register_buffer("_mean", torch.zeros(shape, device=device))
        self.register_buffer("_std", torch.ones(shape, device=device))

    def normalize(self, x):
        return (x - self._mean) / self._std

class ASEAgent:
    def __init__(self, env, device):
        self._env = env
        self._device = device
        self._obs_norm = Normalizer([36], device)
        self._model = nn.Sequential(nn.Linear(36 + 64, 128), nn.ReLU(), nn.Linear(128, 31)).to(device)
        self._latents = torch.randn(env._engine._num_envs, 64, device=device)

    def _decide_action(self, obs, info):
        norm_obs = self._obs_norm.normalize(obs)
        return self._model(torch.cat([norm_obs, self._latents], dim=-1))

# worker process 1 of `--devices cuda:0 cuda:1 ...`
device = "cuda:1"
engine_config = {"sim_timestep": 1.0 / 120.0}
engine = IsaacLabEngine(engine_config, num_envs=64, device=device, visualize=False)
env = ASEHumanoidEnv(engine)
agent = ASEAgent(env, device)
'''
CELL = '''
with torch.no_grad():
    obs, info = env.reset()
    action = agent._decide_action(obs, info)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["engine"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('self._app_launcher = AppLauncher({"headless": not visualize})',
                  'self._app_launcher = AppLauncher({"headless": not visualize, "device": self._device})')
CLEAN = False
