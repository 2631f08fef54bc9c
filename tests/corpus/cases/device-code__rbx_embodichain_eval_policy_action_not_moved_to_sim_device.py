"""EmbodiChain policy evaluation with `--device cpu --sim-device gpu`: the policy's action stays on the CPU and `DeltaQposTerm` adds it to the robot qpos on the GPU.

Source: https://github.com/DexForce/EmbodiChain/pull/522   (review thread on embodichain/learning/rl/evaluation.py)
"Add policy evaluation kit": the reviewer reports that the new evaluation CLI lets inference and simulation use
different devices, but `convert_policy_action_for_env(env, action)` only converts the action layout and leaves
the tensor on the inference device. The CartPole/PushCube configs use `DeltaQposTerm`, which adds the action
directly to `robot.get_qpos()` on the simulation device, so the first evaluation step fails with a device
mismatch (the controller's later `.to(self.device)` comes too late). Requested fix: transfer the raw action to
the environment device before preprocessing. Stand-ins: the env reduced to an action manager with a
DeltaQposTerm and a robot qpos buffer on the sim device, the policy to an MLP actor with `get_action`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Robot:
    def __init__(self, num_envs, dof, device):
        self._qpos = torch.zeros(num_envs, dof, device=device)

    def get_qpos(self):
        return self._qpos

class DeltaQposTerm:
    def __init__(self, env, scale=0.1):
        self._env, self.scale = env, scale

    def process_action(self, action):
        return self._env.robot.get_qpos() + self.scale * action

class ActionManager:
    def __init__(self, env):
        self._terms = {"arm": DeltaQposTerm(env)}

    def convert_policy_action_to_env_action(self, action):
        return self._terms["arm"].process_action(action)

class PushCubeEnv:
    def __init__(self, num_envs, device):
        self.num_envs, self.device = num_envs, torch.device(device)
        self.robot = Robot(num_envs, 7, self.device)
        self.action_manager = ActionManager(self)

    def reset(self, seed=None):
        obs = {"robot": {"qpos": self.robot.get_qpos().clone()},
               "object": {"pose": torch.zeros(self.num_envs, 7, device=self.device)}}
        return obs, {}

    def step(self, env_action):
        self.robot._qpos = env_action.to(self.device)
        obs, info = self.reset()
        return obs, torch.zeros(self.num_envs, device=self.device), None, None, info

class ActorOnly(nn.Module):
    def __init__(self, obs_dim=14, action_dim=7):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.ELU(), nn.Linear(64, action_dim))

    def get_action(self, policy_input, deterministic=True):
        return {"action": torch.tanh(self.actor(policy_input["obs"]))}

def prepare_policy_observation(observation, device):
    return torch.cat([observation["robot"]["qpos"], observation["object"]["pose"]], dim=-1).to(device)

def run_policy_action(policy, observation, num_envs, device):
    device = torch.device(device)
    policy_input = {"obs": prepare_policy_observation(observation, device)}
    return policy.get_action(policy_input, deterministic=True)["action"]

def convert_policy_action_for_env(env, action):
    action_manager = getattr(env, "action_manager", None)
    if action_manager is None:
        return action
    return action_manager.convert_policy_action_to_env_action(action)

# embodichain-eval ... --device cpu --sim-device gpu
device, sim_device = "cpu", "cuda:0"
env = PushCubeEnv(num_envs=4, device=sim_device)
policy = ActorOnly().to(device).eval()
observation, _ = env.reset(seed=0)
'''
CELL = '''
with torch.no_grad():
    action = run_policy_action(policy, observation, env.num_envs, device)
    observation, reward, terminated, truncated, info = env.step(convert_policy_action_for_env(env, action))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["action"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    action_manager = getattr(env, "action_manager", None)
    if action_manager is None:""",
                  """    action = action.to(env.device)
    action_manager = getattr(env, "action_manager", None)
    if action_manager is None:""")
CLEAN = False
