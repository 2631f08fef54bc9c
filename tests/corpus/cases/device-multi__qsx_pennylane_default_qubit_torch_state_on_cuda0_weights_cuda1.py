"""PennyLane `default.qubit.torch` with gate parameters on cuda:1: the simulator state is created on the default GPU.

Source: https://github.com/PennyLaneAI/pennylane/pull/1982
The PR's reproduction: `dev = qml.device("default.qubit.torch", wires=1)`, a torch QNode applying
`qml.RX(weights, wires=0)` and returning `qml.expval(qml.PauliZ(0))`, called with
`weights = torch.tensor(0.0, device='cuda:1')`. The device noticed CUDA parameters but stored only
"cuda", so its state was created on the current GPU (cuda:0) while the RX matrix was on cuda:1.
The fix stores the exact device of the gate parameters, index included.
Stand-in: default.qubit.torch reduced to state creation, RX and PauliZ expectation (amplitudes
kept as real magnitudes); the pre-fix "cuda" written as "cuda:0", the device it resolves to.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch

class DefaultQubitTorch:
    def __init__(self, wires, torch_device="cpu"):
        self.num_wires = wires
        self._torch_device = torch_device

    def _create_basis_state(self):
        one = torch.ones(1, dtype=torch.float64, device=self._torch_device)
        rest = torch.zeros(2 ** self.num_wires - 1, dtype=torch.float64, device=self._torch_device)
        return torch.cat([one, rest])

    def _rx(self, theta):
        c = torch.cos(theta / 2)
        s = torch.sin(theta / 2)      # |-i sin|: amplitudes kept as magnitudes in this stand-in
        return torch.stack([torch.stack([c, s]), torch.stack([s, c])])

    def execute(self, weights):
        if weights.is_cuda:
            self._torch_device = "cuda:0"      # pre-fix: "cuda", i.e. the current device
        state = self._create_basis_state()
        state = self._rx(weights) @ state
        z = torch.tensor([1.0, -1.0], dtype=torch.float64, device=state.device)
        return (state.abs() ** 2 * z).sum()

def qnode(dev):
    def deco(fn):
        def wrapper(*args):
            return fn(dev, *args)
        return wrapper
    return deco

dev = DefaultQubitTorch(wires=1)

@qnode(dev)
def circuit(dev, weights):
    return dev.execute(weights)          # qml.RX(weights, wires=0); qml.expval(qml.PauliZ(0))

weights = torch.zeros((), dtype=torch.float64, device='cuda:1')
'''
CELL = '''
res = circuit(weights)
print(res.device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dev"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('self._torch_device = "cuda:0"      # pre-fix: "cuda", i.e. the current device',
                  'self._torch_device = weights.device')
CLEAN = False
