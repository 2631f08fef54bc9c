"""D2L's from-scratch GRU makes its initial state with `torch.zeros` and no device inside `forward`.

Source: https://github.com/d2l-ai/d2l-en/pull/2233
The PyTorch `GRUScratch.forward` of Dive into Deep Learning started with
`if H is None: H = torch.zeros(inputs.shape[1], self.num_hiddens)`, so with the model's parameters
and the input batch on the GPU the first `torch.matmul(H, self.W_hz)` mixed a CPU state into CUDA
math. The PR's fix: `torch.zeros(..., device=inputs.device)`. Stand-in: `d2l.Module` reduced to
`nn.Module`, the book's weight layout kept.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class GRUScratch(nn.Module):
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs, self.num_hiddens = num_inputs, num_hiddens
        init_weight = lambda *shape: nn.Parameter(torch.randn(*shape) * sigma)
        triple = lambda: (init_weight(num_inputs, num_hiddens),
                          init_weight(num_hiddens, num_hiddens),
                          nn.Parameter(torch.zeros(num_hiddens)))
        self.W_xz, self.W_hz, self.b_z = triple()  # Update gate
        self.W_xr, self.W_hr, self.b_r = triple()  # Reset gate
        self.W_xh, self.W_hh, self.b_h = triple()  # Candidate hidden state

    def forward(self, inputs, H=None):
        if H is None:
            # Initial state with shape: (batch_size, num_hiddens)
            H = torch.zeros((inputs.shape[1], self.num_hiddens))
        outputs = []
        for X in inputs:
            Z = torch.sigmoid(torch.matmul(X, self.W_xz) + torch.matmul(H, self.W_hz) + self.b_z)
            R = torch.sigmoid(torch.matmul(X, self.W_xr) + torch.matmul(H, self.W_hr) + self.b_r)
            H_tilde = torch.tanh(torch.matmul(X, self.W_xh) + torch.matmul(R * H, self.W_hh) + self.b_h)
            H = Z * H + (1 - Z) * H_tilde
            outputs.append(H)
        return outputs, H

device = torch.device("cuda:0")
rnn = GRUScratch(num_inputs=28, num_hiddens=32).to(device)
X = torch.randn(35, 16, 28).to(device)        # (num_steps, batch_size, num_inputs)
'''
CELL = '''
outputs, H = rnn(X)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["rnn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "H = torch.zeros((inputs.shape[1], self.num_hiddens))",
    "H = torch.zeros((inputs.shape[1], self.num_hiddens), device=inputs.device)",
)
CLEAN = False
