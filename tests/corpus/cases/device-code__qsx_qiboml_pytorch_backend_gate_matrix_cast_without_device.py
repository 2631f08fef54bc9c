"""qiboml PyTorch backend on cuda: gate matrices taken from numpy are cast to torch without a device, bmm with the cuda state fails.

Source: https://github.com/qiboteam/qiboml/issues/76
The user set `qibo.set_backend(backend="qiboml", platform="pytorch")` (log: "Using qiboml (pytorch)
backend on cuda:0"), built `c = qibo.Circuit(1)`, added `qibo.gates.RX(0, 0)`, set a cuda parameter
`x = torch.tensor([1], device=torch.device("cuda"))` and called `c.execute()`: "Expected all
tensors to be on the same device, but found at least two devices, cpu and cuda:0! (... mat2 in
method wrapper_CUDA_bmm)". The reporter found that the matrices are taken from
qibo/backends/npmatrices.py and cast to torch.Tensor without setting the device; the maintainers'
PR (#72) casts them on the backend's device.
Stand-in: a PyTorch backend with `zero_state` on its device, a `cast` that drops the device and
an RX built from numpy, applied with bmm; real-valued amplitudes.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

class PyTorchBackend:
    def __init__(self, device="cuda:0"):
        self.device = device

    def cast(self, x, dtype=torch.float64):
        return torch.as_tensor(np.asarray(x), dtype=dtype)

    def zero_state(self, nqubits):
        one = torch.ones(1, dtype=torch.float64, device=self.device)
        return torch.cat([one, torch.zeros(2 ** nqubits - 1, dtype=torch.float64, device=self.device)])

    def matrix_parametrized(self, gate):
        theta = float(gate.parameters[0]) if not isinstance(gate.parameters[0], torch.Tensor) else 0.0
        c, s = np.cos(theta / 2), np.sin(theta / 2)
        return self.cast([[c, s], [s, c]])          # npmatrices.RX, magnitudes

class RX:
    def __init__(self, q, theta):
        self.target_qubits = (q,)
        self.parameters = (theta,)

class Circuit:
    def __init__(self, nqubits, backend):
        self.nqubits = nqubits
        self.backend = backend
        self.queue = []

    def add(self, gate):
        self.queue.append(gate)

    def set_parameters(self, params):
        for gate, p in zip(self.queue, params):
            gate.parameters = (p,)

    def execute(self):
        state = self.backend.zero_state(self.nqubits)
        for gate in self.queue:
            matrix = self.backend.matrix_parametrized(gate)
            state = torch.bmm(matrix.unsqueeze(0), state.reshape(1, -1, 1)).reshape(-1)
        return state

backend = PyTorchBackend(device="cuda:0")     # qibo.set_backend(backend="qiboml", platform="pytorch")
x = torch.tensor([1.0], device=torch.device("cuda:0"))
c = Circuit(1, backend)
c.add(RX(0, 0))
c.set_parameters(x)
'''
CELL = '''
result = c.execute()
print(result.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["c"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.as_tensor(np.asarray(x), dtype=dtype)",
                  "return torch.as_tensor(np.asarray(x), dtype=dtype, device=self.device)")
CLEAN = False
