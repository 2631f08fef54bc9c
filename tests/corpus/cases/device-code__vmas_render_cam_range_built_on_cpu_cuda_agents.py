"""VMAS `use_vmas_env.py` on CUDA: `render` divides the GPU agent extent by a `cam_range` tensor built on the CPU.

Source: https://github.com/proroklab/VectorizedMultiAgentSimulator/pull/22
Changing the example's device from "cpu" to "cuda" made `env.try_render_at(...)` fail in
`Environment.render` at `viewer_size = torch.maximum(viewer_size_fit / cam_range, torch.tensor(1))`:
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
"The variable cam_range is allocated to the CPU": it is built with `torch.tensor(...)` from the
viewer size without the world's device, while `viewer_size_fit` comes from the agents' positions on
the GPU. Stand-ins: a world with agents whose state lives on `device`, and the render code that
fits the camera to all agents.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from types import SimpleNamespace

X, Y = 0, 1

class Environment:
    def __init__(self, num_envs, n_agents, device, viewer_size=(700, 700), viewer_zoom=1.0):
        self.device = torch.device(device)
        self.viewer_size, self.viewer_zoom = viewer_size, viewer_zoom
        self.world = SimpleNamespace(agents=[
            SimpleNamespace(shape=SimpleNamespace(radius=0.05),
                            state=SimpleNamespace(pos=torch.rand(num_envs, 2, device=self.device) * 2 - 1))
            for _ in range(n_agents)])

    def render(self, env_index=0, agent_index_focus=None):
        all_poses = torch.stack([agent.state.pos[env_index] for agent in self.world.agents], dim=0)
        max_agent_radius = max(agent.shape.radius for agent in self.world.agents)
        viewer_size_fit = torch.stack([
            torch.max(torch.abs(all_poses[:, X])), torch.max(torch.abs(all_poses[:, Y]))]) + 2 * max_agent_radius
        cam_range = torch.tensor(self.viewer_size, dtype=torch.float32) / max(self.viewer_size)
        viewer_size = torch.maximum(viewer_size_fit / cam_range, torch.tensor(1))
        return viewer_size * self.viewer_zoom

    def try_render_at(self, env_index=0):
        return self.render(env_index=env_index)

env = Environment(num_envs=32, n_agents=4, device="cuda:0")    # use_vmas_env(device="cuda")
'''
CELL = '''
frame = env.try_render_at(env_index=0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["env"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor(self.viewer_size, dtype=torch.float32)", "torch.tensor(self.viewer_size, dtype=torch.float32, device=self.device)")
CLEAN = False
