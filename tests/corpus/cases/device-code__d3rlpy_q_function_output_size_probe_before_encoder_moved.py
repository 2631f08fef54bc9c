"""d3rlpy DiscreteCQL created with device="cuda:0": the encoder is probed on the GPU before it is moved there.

Source: https://github.com/takuseno/d3rlpy/issues/329
`DiscreteCQLConfig(...).create(device="cuda:0")` failed while building the model with "Expected all
tensors to be on the same device, but found at least two devices, cpu and cuda:0!": inside
`create_discrete_q_function`, `compute_output_size` runs the freshly built encoder on a dummy input
created on `device`. The reporter: "The encoder has not been moved to cuda by the time
compute_output_size is called". Stand-in: the factory functions reduced, with a vector encoder (the
report's pixel encoder replaced by Linear layers).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class VectorEncoder(nn.Module):
    def __init__(self, observation_shape, hidden_units=(64, 64)):
        super().__init__()
        layers, in_units = [], observation_shape[0]
        for units in hidden_units:
            layers += [nn.Linear(in_units, units), nn.ReLU()]
            in_units = units
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)

class VectorEncoderFactory:
    def create(self, observation_shape):
        return VectorEncoder(observation_shape)

class DiscreteMeanQFunction(nn.Module):
    def __init__(self, encoder, hidden_size, action_size):
        super().__init__()
        self.encoder = encoder
        self.fc = nn.Linear(hidden_size, action_size)

    def forward(self, x):
        return self.fc(self.encoder(x))

def compute_output_size(input_shapes, encoder, device):
    with torch.no_grad():
        inputs = [torch.rand((1,) + tuple(shape), device=device) for shape in input_shapes]
        y = encoder(*inputs)
    return int(y.shape[1])

def create_discrete_q_function(observation_shape, action_size, encoder_factory, device, n_ensembles=1):
    q_funcs = []
    for _ in range(n_ensembles):
        encoder = encoder_factory.create(observation_shape)
        hidden_size = compute_output_size([observation_shape], encoder, device=device)
        q_funcs.append(DiscreteMeanQFunction(encoder, hidden_size, action_size))
    q_func = nn.ModuleList(q_funcs)
    q_func.to(device)
    return q_func

observation_shape, action_size = (8,), 4
encoder_factory = VectorEncoderFactory()
'''
CELL = '''
q_funcs = create_discrete_q_function(observation_shape, action_size, encoder_factory, device="cuda:0")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("encoder = encoder_factory.create(observation_shape)",
                  "encoder = encoder_factory.create(observation_shape).to(device)")
CLEAN = False
