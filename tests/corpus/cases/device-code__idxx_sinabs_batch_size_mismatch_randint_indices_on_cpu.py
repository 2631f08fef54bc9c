"""sinabs stateful layer on the GPU: a smaller batch makes `handle_state_batch_size_mismatch` `index_select` the GPU state with `torch.randint` indices made on the CPU.

Source: https://github.com/synsense/sinabs/issues/84
"Handling batch size mismatch sometimes crashes": when the batch size changes between calls (e.g.
the last, smaller batch of an epoch), `StatefulLayer.handle_state_batch_size_mismatch` resamples
each state buffer with `indices = torch.randint(low=0, high=buffer.shape[0],
size=(new_batch_size,))` and `torch.index_select(buffer, 0, indices)`; with the layer on the GPU
this raises "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu! (when checking argument for argument index in method wrapper__index_select)".
The reporter's fix (merged as "Create random indices tensor on the same device as the buffer"):
`torch.randint(...).to(buffer.device)`.
Stand-in: sinabs `StatefulLayer` (buffers, `init_state_with_shape`, `reset_states`,
`handle_state_batch_size_mismatch`) and `LIF.forward`'s state handling; `lif_forward` is
reduced to a plain membrane update loop without synaptic current (time steps read with
`select`, as the simulator cannot index fake GPU tensors with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from typing import List
import torch
from torch import nn


class StatefulLayer(torch.nn.Module):
    """Stand-in for sinabs.layers.StatefulLayer (before the fix)."""

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
            indices = torch.randint(low=0, high=buffer.shape[0], size=(new_batch_size,))
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

        # Ensure the state is initialized.
        if not self.is_state_initialised():
            self.init_state_with_shape((batch_size, *trailing_dim))

        if not self.state_has_shape((batch_size, *trailing_dim)):
            # If the trailing dim has changed, we reinitialize the states.
            if not self.has_trailing_dimension(trailing_dim):
                self.init_state_with_shape((batch_size, *trailing_dim))
            # Otherwise only the batch size has changed.
            else:
                self.handle_state_batch_size_mismatch(batch_size)  # with the input batch size

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

# first batches of the epoch: batch size 8
x = torch.rand(8, 10, 16, device="cuda:0")
out = model(x)
'''
CELL = '''
# last batch of the epoch: only 5 samples left
x = torch.rand(5, 10, 16, device="cuda:0")
out = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "indices = torch.randint(low=0, high=buffer.shape[0], size=(new_batch_size,))",
    "indices = torch.randint(low=0, high=buffer.shape[0], size=(new_batch_size,)).to(buffer.device)",
)
CLEAN = False
