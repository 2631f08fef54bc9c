"""Look-alike: Qiskit Machine Learning `TorchConnector` evaluates the QNN on host copies of the inputs and moves the result back to the input's device.

Source: https://github.com/qiskit-community/qiskit-machine-learning/blob/main/qiskit_machine_learning/connectors/torch_connector.py
The connector's autograd function runs `neural_network.forward(input_data.detach().cpu().numpy(),
weights.detach().cpu().numpy())`, wraps the result with `torch.as_tensor(result, dtype=torch.float)`
and returns it `.to(input_data.device)`; the connector's weight Parameter follows `model.to(device)`.
A hybrid model (cuda conv/linear layers around the connector) therefore computes the circuit on the
host and hands cuda activations to the next layer. Deliberate CPU round trip: it runs.
Stand-in: the QNN forward is a torch computation on the host copies (no numpy), EstimatorQNN-like
output of one expectation value per sample.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class EstimatorQNN:
    num_inputs = 2
    num_weights = 4

    def forward(self, input_data, weights):
        return torch.cos(input_data.sum(-1, keepdim=True) + weights.sum())     # <Z...Z>, host side

def _connector_forward(input_data, weights, neural_network):
    result = neural_network.forward(input_data.detach().cpu(), weights.detach().cpu())
    result_tensor = torch.as_tensor(result, dtype=torch.float)
    return result_tensor.to(input_data.device)

class TorchConnector(nn.Module):
    def __init__(self, neural_network, initial_weights=None):
        super().__init__()
        self._neural_network = neural_network
        self.weight = nn.Parameter(torch.zeros(neural_network.num_weights) if initial_weights is None
                                   else torch.as_tensor(initial_weights, dtype=torch.float))

    def forward(self, input_data):
        return _connector_forward(input_data, self.weight, self._neural_network)

class Net(nn.Module):
    def __init__(self, qnn):
        super().__init__()
        self.fc1 = nn.Linear(16, 2)
        self.qnn = TorchConnector(qnn)
        self.fc3 = nn.Linear(1, 1)

    def forward(self, x):
        x = self.fc1(x)
        x = self.qnn(x)
        return torch.cat((self.fc3(x), 1 - self.fc3(x)), -1)

device = torch.device("cuda:0")
model4 = Net(EstimatorQNN()).to(device)
data = torch.randn(8, 16, device=device)
'''
CELL = '''
output = model4(data)
print(output.device, output.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
