"""PennyLane torch QNode fed parameters on `cuda:1` returns its state on the default GPU `cuda:0`.

Source: https://github.com/PennyLaneAI/pennylane/issues/7955
The user builds `ckt = circuit_builder(n=2)` (`qml.QNode(circuit, qml.device('default.qubit',
wires=n), interface='torch')`, CRX gates, `return qml.state()`), calls it with `params1 =
torch.randn(2, device='cuda:1')` and finds the returned state on cuda:0 instead of cuda:1: the
execution puts its tensors on the default cuda device rather than on the parameters' device.
Anything combining the result with the user's other cuda:1 tensors then fails.
Stand-in: a QNode object whose execution moves the parameters to a fixed default cuda device
(cuda:0) before simulating; the user compares the state with a reference state on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch

class QNode:
    def __init__(self, func, n_wires):
        self.func = func
        self.n_wires = n_wires

    def __call__(self, params):
        default_device = torch.device("cuda:0")           # torch's current/default cuda device
        params = params.to(default_device)
        state = torch.ones(2 ** self.n_wires, device=default_device) / 2 ** (self.n_wires / 2)
        return self.func(state, params)

def circuit_builder(n):
    def circuit(state, params):
        for i in range(n // 2):
            state = state * torch.cos(params.sum() / 2)  # qml.CRX(params[i], wires=[2*i, 2*i+1])
        return state                                     # qml.state()
    return QNode(circuit, n)

ckt = circuit_builder(n=2)
params0 = torch.randn(2, device="cuda:0")
params1 = torch.randn(2, device="cuda:1")
target_state = torch.ones(4, device="cuda:1") / 2
'''
CELL = '''
out1 = ckt(params1)
fidelity = torch.sum(out1 * target_state) ** 2
print(fidelity)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ckt"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('default_device = torch.device("cuda:0")', "default_device = params.device")
CLEAN = False
