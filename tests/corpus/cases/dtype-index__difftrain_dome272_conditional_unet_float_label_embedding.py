"""Conditional DDPM (dome272): a continuous scalar label fed to the UNet's `label_emb` embedding.

Source: https://github.com/dome272/Diffusion-Models-pytorch/issues/29
Adapting `UNet_conditional` to images labeled by one continuous value, the user passed the value as the
label and got "Expected tensor for argument #1 'indices' to have one of the following scalar types:
Long, Int; but got torch.cuda.DoubleTensor instead (while checking arguments for embedding)":
`self.label_emb = nn.Embedding(num_classes, time_dim)` needs integer class ids. The maintainer's
suggestion taken here: discretize the scalar into classes (integer indices). Stand-in: the
conditional UNet reduced to its time/label embedding and one conv; CPU.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
from torch import nn

class UNet_conditional(nn.Module):
    def __init__(self, c_in=3, c_out=3, time_dim=32, num_classes=10):
        super().__init__()
        self.time_dim = time_dim
        self.inc = nn.Conv2d(c_in, time_dim, 3, padding=1)
        self.outc = nn.Conv2d(time_dim, c_out, 1)
        if num_classes is not None:
            self.label_emb = nn.Embedding(num_classes, time_dim)

    def pos_encoding(self, t, channels):
        inv_freq = 1.0 / (10000 ** (torch.arange(0, channels, 2, device=t.device).float() / channels))
        pos_enc_a = torch.sin(t.repeat(1, channels // 2) * inv_freq)
        pos_enc_b = torch.cos(t.repeat(1, channels // 2) * inv_freq)
        return torch.cat([pos_enc_a, pos_enc_b], dim=-1)

    def forward(self, x, t, y):
        t = t.unsqueeze(-1).type(torch.float)
        t = self.pos_encoding(t, self.time_dim)
        if y is not None:
            t += self.label_emb(y)
        return self.outc(self.inc(x) + t[:, :, None, None])

device = "cpu"
model = UNet_conditional(num_classes=10).to(device)
images = torch.randn(4, 3, 16, 16)
labels = torch.from_numpy(np.random.uniform(0, 9.99, size=4))   # one continuous value per image
t = torch.randint(low=1, high=1000, size=(images.shape[0],))
x_t = images
'''
CELL = '''
labels = labels.to(device)
predicted_noise = model(x_t, t, labels)
'''
EXPECT_ERROR = ("Expected tensor for argument #1 'indices' to have one of the following scalar types", "tensors used as indices must be long")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.floor().long()
'''
REFERENCE_EDIT = None
CLEAN = False
