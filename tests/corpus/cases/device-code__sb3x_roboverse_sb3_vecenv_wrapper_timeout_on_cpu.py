"""RoboVerse's SB3 `VecEnvWrapper`: `dones = success | timeout` mixes a GPU success mask with a CPU timeout.

Source: https://github.com/RoboVerseOrg/RoboVerse/issues/362
"Reinforcement learning demo": training `get_started/rl/0_ppo_reaching.py` (Stable-Baselines3 PPO on
an Isaac Lab task) stopped in the SB3 `VecEnvWrapper.step_wait` at `dones = success | timeout` with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and CPU!".
The task env returned `success` on the simulator's device (cuda:0) and `timeout` on the CPU; the
reporter's fix (merged in PR #367) moves the time-out mask in the wrapper:
`dones = success | timeout.to(success.device)`. Stand-in: a gym-style task env that returns those two
masks (its CPU episode counter is the stand-in's way of producing a CPU `timeout`) and the SB3 VecEnv
wrapper, with the numpy conversion for SB3 left out.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

class ReachingTaskEnv:
    """Gym-style RoboVerse task stand-in: simulator states on the sim device, episode counter on the CPU."""
    def __init__(self, num_envs=128, device="cuda:0", max_episode_steps=250):
        self.num_envs = num_envs
        self.device = torch.device(device)
        self.max_episode_steps = max_episode_steps
        self.ee_pos = torch.zeros(num_envs, 3, device=self.device)
        self.target = torch.randn(num_envs, 3, device=self.device) * 0.3
        self._episode_length_buf = torch.zeros(num_envs, dtype=torch.int64)

    def step(self, action_dicts):
        self.ee_pos = self.ee_pos + 0.01
        self._episode_length_buf += 1
        dist = torch.norm(self.ee_pos - self.target, dim=-1)
        rewards = -dist
        success = dist < 0.05
        timeout = self._episode_length_buf >= self.max_episode_steps
        return self.ee_pos, rewards, success, timeout, {}

class VecEnvWrapper:
    """Vectorized environment wrapper for the task to work with Stable Baselines 3 (reduced)."""
    def __init__(self, env):
        self.env = env
        self.num_envs = env.num_envs

    def step_async(self, actions):
        self.action_dicts = [{"dof_pos_target": dict(enumerate(action))} for action in actions]

    def step_wait(self):
        obs, rewards, success, timeout, _ = self.env.step(self.action_dicts)
        dones = success | timeout
        return obs, rewards, dones, timeout

    def step(self, actions):
        self.step_async(actions)
        return self.step_wait()

env = VecEnvWrapper(ReachingTaskEnv(num_envs=128, device="cuda:0"))
actions = np.zeros((128, 9), dtype=np.float32)      # model.predict(obs) output
'''
CELL = '''
obs, rewards, dones, timeouts = env.step(actions)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["env"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dones = success | timeout", "dones = success | timeout.to(success.device)")
CLEAN = False
