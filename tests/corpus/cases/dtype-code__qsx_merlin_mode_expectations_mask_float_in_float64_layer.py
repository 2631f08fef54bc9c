"""MerLin QuantumLayer(dtype=torch.float64) with MODE_EXPECTATIONS: the measurement mask is hard-coded float32.

Source: https://github.com/merlinquantum/merlin/pull/95
"QuantumLayer with `dtype=torch.float64` and `MeasurementStrategy.MODE_EXPECTATIONS` crashes on the
first forward pass with `RuntimeError: expected m1 and m2 to have the same dtype, but got: double !=
float`." Root cause from the PR: `ModeExpectations` creates its mask with `.float()`, so
`probability_distribution @ self.mask.T` mixes float64 probabilities with a float32 mask. The fix
creates the mask with the layer's dtype (`.to(dtype=resolved_dtype)`); the reference edit here casts
the mask to the distribution's dtype where it is used.
Stand-in: ModeExpectations with the keys->mask construction, QuantumLayer producing a float64
probability distribution over Fock keys; CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

class ModeExpectations(nn.Module):
    def __init__(self, input_size, keys):
        super().__init__()
        mask = torch.tensor([[1 if k[m] > 0 else 0 for k in keys] for m in range(len(keys[0]))])
        self.register_buffer("mask", mask.float())

    def forward(self, probability_distribution):
        return probability_distribution @ self.mask.T

class QuantumLayer(nn.Module):
    def __init__(self, input_size, n_modes=3, dtype=torch.float32):
        super().__init__()
        self.dtype = dtype
        self.keys = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)]
        self.theta = nn.Parameter(torch.rand(input_size, len(self.keys), dtype=dtype))
        self.output_mapping = ModeExpectations(len(self.keys), self.keys)

    def forward(self, x):
        logits = x.to(self.dtype) @ self.theta
        probability_distribution = torch.softmax(logits, dim=-1)
        return self.output_mapping(probability_distribution)

layer = QuantumLayer(input_size=2, dtype=torch.float64)
x = torch.rand(8, 2, dtype=torch.float64)
'''
CELL = '''
out = layer(x)
print(out.shape, out.dtype)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "expected m1 and m2")
CULPRITS = ["layer.output_mapping"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return probability_distribution @ self.mask.T",
                  "return probability_distribution @ self.mask.T.to(probability_distribution.dtype)")
CLEAN = False
