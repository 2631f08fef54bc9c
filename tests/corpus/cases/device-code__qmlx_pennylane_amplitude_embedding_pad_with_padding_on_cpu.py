"""PennyLane `qml.AmplitudeEmbedding(..., pad_with=0, normalize=True)` on cuda features: the padding is built on the CPU.

Source: https://github.com/PennyLaneAI/pennylane/issues/2419
The user's QNode `circuit_cuda(inputs)` embeds `inputs = torch.rand(n_wires)` (shorter than
2 ** n_wires, so it is padded) and returns `qml.expval(qml.PauliZ(0))`; it works on the CPU and
fails once `inputs = inputs.to(torch.device('cuda'))`: the template's `_preprocess` concatenates
the features with a padding tensor made from `[pad_with] * (dim - n_features)` without the
features' device (fixed later by building the padding like the features, PR #3392).
Stand-in: `_preprocess` (pad + normalise) and a circuit computing the PauliZ(0) expectation from
the amplitudes; plain functions.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

n_wires = 2

def _preprocess(features, n_wires, pad_with, normalize):
    dim = 2 ** n_wires
    n_features = features.shape[-1]
    if n_features < dim:
        padding = torch.tensor([pad_with] * (dim - n_features), dtype=features.dtype)
        features = torch.cat([features, padding], dim=-1)
    if normalize:
        features = features / torch.sqrt(torch.sum(features ** 2))
    return features

def circuit_cuda(inputs):
    state = _preprocess(inputs, n_wires, pad_with=0, normalize=True)   # qml.AmplitudeEmbedding
    z0 = torch.tensor([1.0, 1.0, -1.0, -1.0], device=state.device)
    return torch.sum(z0 * state ** 2)                                    # qml.expval(qml.PauliZ(0))

inputs = torch.rand(n_wires)
print(circuit_cuda(inputs))
inputs = inputs.to(torch.device("cuda:0"))
'''
CELL = '''
print(circuit_cuda(inputs))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["padding"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("padding = torch.tensor([pad_with] * (dim - n_features), dtype=features.dtype)",
                  "padding = torch.tensor([pad_with] * (dim - n_features), dtype=features.dtype, device=features.device)")
CLEAN = False
