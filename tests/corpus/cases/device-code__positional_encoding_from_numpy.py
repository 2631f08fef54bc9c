"""A transformer computes its sinusoidal positional encoding with numpy in forward (CPU tensor).

Source: https://github.com/wingedsheep/transformer/issues/4
The user got "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu!"; the fix they posted: the positional encoding, built with numpy and
torch.from_numpy(...).float() inside the model, must be moved to the model's device.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class TinyTransformer(nn.Module):
    def __init__(self, vocab=50, d_model=16):
        super().__init__()
        self.d_model = d_model
        self.embedding = nn.Embedding(vocab, d_model)
        self.out = nn.Linear(d_model, vocab)

    def positional_encoding(self, seq_len):
        pos = np.arange(seq_len)[:, None]
        i = np.arange(self.d_model)[None, :]
        angle = pos / np.power(10000, (2 * (i // 2)) / self.d_model)
        positional_encoding = np.where(i % 2 == 0, np.sin(angle), np.cos(angle))
        return torch.from_numpy(positional_encoding).float()

    def forward(self, tokens):
        x = self.embedding(tokens) * self.d_model ** 0.5
        x = x + self.positional_encoding(tokens.shape[1])
        return self.out(x)

model = TinyTransformer().to("cuda:0")
tokens = torch.randint(0, 50, (2, 12)).to("cuda:0")
'''
CELL = '''
logits = model(tokens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.from_numpy(positional_encoding).float()",
    "torch.from_numpy(positional_encoding).float().to(self.out.weight.device)",
)
CLEAN = False
