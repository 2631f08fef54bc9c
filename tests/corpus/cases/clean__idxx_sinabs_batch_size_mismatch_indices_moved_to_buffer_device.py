"""Look-alike: sinabs resamples GPU state buffers for a smaller batch with `torch.randint(...)` indices that are moved `.to(buffer.device)` before `index_select`.

Source: https://github.com/synsense/sinabs/blob/904eb89398cc4006af4a8ec2d5b7e48fc17b4ba1/sinabs/layers/stateful_layer.py
`StatefulLayer.handle_state_batch_size_mismatch` draws `indices = torch.randint(low=0,
high=buffer.shape[0], size=(new_batch_size,)).to(buffer.device)` and keeps
`torch.index_select(buffer, 0, indices)` as the new state; `init_state_with_shape` creates the
states with `device=buffer.device`. A random index tensor made without a device right next to a
GPU `index_select` (the pattern of sinabs issue #84), already moved here.
Stand-in: `StatefulLayer` (as released) and `LIF.forward`'s state handling; `lif_forward` reduced
to a plain membrane update loop without synaptic current (time steps read with `select`, as the
simulator cannot index fake GPU tensors with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import List
import torch
from torch import nn


class StatefulLayer(torch.nn.Module):
    """Stand-in for sinabs.layers.StatefulLayer."""

    def __init__(self, state_names: List[str]):
        super().__init__()
        for state_name in state_names:
            self.register_buffer(state_name, torch.zeros((0)))

    def is_state_initialised(self) -> bool:
        for buffer in self.buffers():
            if buffer.shape == torch.Size([0]):
                return False
        return True

    def state_has_shape(self, shape) -> bool:
        for buff in self.buffers():
            if buff.shape != shape:
                return False
        return True

    def handle_state_batch_size_mismatch(self, new_batch_size: int):
        for name, buffer in self.named_buffers():
            indices = torch.randint(
                low=0, high=buffer.shape[0], size=(new_batch_size,)
            ).to(buffer.device)
            new_buffer = torch.index_select(buffer, 0, indices)
            self.register_buffer(name, new_buffer)

    def has_trailing_dimension(self, trailing_dim) -> bool:
        for buff in self.buffers():
            if buff.shape[1:] != torch.Size(trailing_dim):
                return False
        return True

    def init_state_with_shape(self, shape, randomize: bool = False) -> None:
        for name, buffer in self.named_buffers():
            self.register_buffer(name, torch.zeros(shape, device=buffer.device))
        self.reset_states()

    def reset_states(self):
        if self.is_state_initialised():
            for name, buffer in self.named_buffers():
                buffer.zero_()
                buffer.detach_()


class LIF(StatefulLayer):
    """Stand-in for sinabs.layers.LIF (no synaptic current, default reset)."""

    def __init__(self, tau_mem: float, spike_threshold: float = 1.0):
        super().__init__(state_names=["v_mem"])
        self.tau_mem = nn.Parameter(torch.as_tensor(tau_mem), requires_grad=False)
        self.spike_threshold = spike_threshold

    def forward(self, input_data: torch.Tensor) -> torch.Tensor:
        batch_size, time_steps, *trailing_dim = input_data.shape
        if not self.is_state_initialised():
            self.init_state_with_shape((batch_size, *trailing_dim))
        if not self.state_has_shape((batch_size, *trailing_dim)):
            if not self.has_trailing_dimension(trailing_dim):
                self.init_state_with_shape((batch_size, *trailing_dim))
            else:
                self.handle_state_batch_size_mismatch(batch_size)

        alpha_mem = torch.exp(-1.0 / self.tau_mem)
        v_mem = self.v_mem
        spikes = []
        for step in range(time_steps):
            v_mem = alpha_mem * v_mem + (1 - alpha_mem) * input_data.select(1, step)
            spk = (v_mem >= self.spike_threshold).float()
            v_mem = v_mem - spk * self.spike_threshold
            spikes.append(spk)
        self.v_mem = v_mem
        return torch.stack(spikes, 1)


model = nn.Sequential(nn.Linear(16, 32), LIF(tau_mem=20.0)).to("cuda:0")
x = torch.rand(8, 10, 16, device="cuda:0")
out = model(x)
'''
CELL = '''
x = torch.rand(5, 10, 16, device="cuda:0")   # last, smaller batch
out = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
