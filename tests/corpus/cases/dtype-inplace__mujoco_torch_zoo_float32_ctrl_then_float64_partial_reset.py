"""mujoco-torch zoo env: the float32 agent action replaces the float64 `ctrl`, so the partial reset writes float64 rows into a float32 field.

Source: https://github.com/vmoens/mujoco-torch/pull/62
"Fix dtype mismatch during partial resets: keep MuJoCo simulator state in its native float64 dtype
across full reset, partial reset, and auto-reset; cast agent actions to the simulator control dtype
at the `_prepare_ctrl` boundary". `MujocoTorchEnv._step` casts the action to the env's API dtype
(float32) and `_prepare_ctrl` returned it unchanged, so `self._dx.update_(ctrl=ctrl)` left a float32
`ctrl` in the float64 simulator batch; the auto-reset `self._dx[done_mask] = reset_batch` then
index-puts the float64 rows from `_dx0`. Stand-ins: the PR's own regression-test batch (fields
qpos/qvel/ctrl, `update_` replaces fields, `__setitem__` writes each field) and the env's step /
auto-reset path with an identity physics step.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch

class DataBatch:
    def __init__(self, qpos, qvel, ctrl):
        self.qpos, self.qvel, self.ctrl = qpos, qvel, ctrl
    def expand(self, n):
        return DataBatch(self.qpos.expand(n, *self.qpos.shape[1:]), self.qvel.expand(n, *self.qvel.shape[1:]),
                         self.ctrl.expand(n, *self.ctrl.shape[1:]))
    def clone(self):
        return DataBatch(self.qpos.clone(), self.qvel.clone(), self.ctrl.clone())
    def update_(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)
        return self
    def __setitem__(self, index, other):
        self.qpos[index] = other.qpos
        self.qvel[index] = other.qvel
        self.ctrl[index] = other.ctrl

class MujocoTorchEnv:
    RESET_NOISE_SCALE = 0.0
    def __init__(self, num_envs=4, dtype=torch.float32, max_episode_steps=5):
        self.num_envs, self.dtype, self.max_episode_steps = num_envs, dtype, max_episode_steps
        self.auto_reset = True
        # mujoco_torch.step(mx, dx0): the simulator state is float64
        self._dx0 = DataBatch(torch.zeros(1, 7, dtype=torch.float64), torch.zeros(1, 6, dtype=torch.float64),
                              torch.zeros(1, 2, dtype=torch.float64))
        self._dx = self._make_batch(num_envs)
        self._step_count = torch.zeros(num_envs, dtype=torch.long)

    def _make_batch(self, n):
        return self._dx0.expand(n).clone()

    def _prepare_ctrl(self, action):
        return action

    def _physics_step(self, dx):
        dx.qvel = dx.qvel + 0.01 * torch.nn.functional.pad(dx.ctrl.to(dx.qvel.dtype), (0, 4))
        dx.qpos = dx.qpos + 0.01 * torch.nn.functional.pad(dx.qvel, (0, 1))
        return dx

    def _step(self, action):
        action = action.to(self.dtype)
        ctrl = self._prepare_ctrl(action)
        self._dx.update_(ctrl=ctrl)
        self._dx = self._physics_step(self._dx)
        self._step_count += 1
        reward = -(self._dx.qpos[:, :1] ** 2).to(self.dtype)
        done = (self._step_count >= self.max_episode_steps).unsqueeze(-1)
        if self.auto_reset:
            done_mask = done.squeeze(-1)
            if done_mask.any():
                reset_batch = self._dx0.expand(int(done_mask.sum())).clone()
                self._dx[done_mask] = reset_batch
                self._step_count[done_mask] = 0
        return reward, done

env = MujocoTorchEnv(num_envs=4)
env._step_count[:] = torch.tensor([4, 0, 4, 1])     # two envs are at their last step
action = torch.rand(4, 2) * 2 - 1                    # policy output, float32
'''
CELL = '''
reward, done = env._step(action)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["env"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    def _prepare_ctrl(self, action):
        return action
""", """    def _prepare_ctrl(self, action):
        return action.to(self._dx0.ctrl.dtype)
""")
CLEAN = False
