"""VMAS road_traffic (map_type "2") on the GPU: the reset draws `torch.rand(1)` on the CPU and compares it with probabilities stored on the env device.

Source: https://github.com/proroklab/VectorizedMultiAgentSimulator/pull/175
"road_traffic map_type="2" crashes on GPU reset ... Device mismatch in reset/record conditions:
`torch.rand(1)` created a CPU tensor while `probability_use_recording` and `probability_record` lived
on the env device (possibly GPU), raising: RuntimeError: Expected all tensors to be on the same
device". The fix passes `device=self.world.device` to both `torch.rand(1)` calls. Stand-ins: the
scenario's parameters and state buffer, and a vectorised version of `reset_world_at`'s choice
between a recorded initial state and the default one (the original branches on the comparison).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from types import SimpleNamespace

class StateBuffer:
    def __init__(self, n_agents, device):
        self.valid_size = 3
        self.positions = torch.zeros(8, n_agents, 2, device=device)
    def get_latest(self, n=1):
        return self.positions[self.valid_size - n]

class ScenarioRoadTraffic:
    def __init__(self, n_agents, device):
        self.world = SimpleNamespace(device=torch.device(device))
        self.n_agents = n_agents
        self.parameters = SimpleNamespace(
            map_type="2",
            probability_use_recording=torch.tensor(0.2, device=self.world.device),
            probability_record=torch.tensor(1.0, device=self.world.device))
        self.state_buffer = StateBuffer(n_agents, self.world.device)
        self.default_pos = torch.randn(n_agents, 2, device=self.world.device)

    def reset_world_at(self, env_index=None):
        use_recording = torch.rand(1) < self.parameters.probability_use_recording
        is_use_state_buffer = use_recording & (self.state_buffer.valid_size >= 1)
        init_pos = torch.where(is_use_state_buffer, self.state_buffer.get_latest(n=1), self.default_pos)
        record = torch.rand(1) < self.parameters.probability_record
        return init_pos, record

scenario = ScenarioRoadTraffic(n_agents=8, device="cuda:0")   # vmas.make_env("road_traffic", device="cuda", map_type="2")
'''
CELL = '''
init_pos, record = scenario.reset_world_at(env_index=0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["scenario"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        use_recording = torch.rand(1) < self.parameters.probability_use_recording
        is_use_state_buffer = use_recording & (self.state_buffer.valid_size >= 1)
        init_pos = torch.where(is_use_state_buffer, self.state_buffer.get_latest(n=1), self.default_pos)
        record = torch.rand(1) < self.parameters.probability_record""",
                  """        use_recording = torch.rand(1, device=self.world.device) < self.parameters.probability_use_recording
        is_use_state_buffer = use_recording & (self.state_buffer.valid_size >= 1)
        init_pos = torch.where(is_use_state_buffer, self.state_buffer.get_latest(n=1), self.default_pos)
        record = torch.rand(1, device=self.world.device) < self.parameters.probability_record""")
CLEAN = False
