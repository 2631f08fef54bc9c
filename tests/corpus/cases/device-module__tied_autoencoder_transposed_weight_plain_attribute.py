"""A tied autoencoder keeps `self.dec_w = self.enc_w.T` as a plain attribute; `.to('cuda')` moves only `enc_w`.

Source: https://github.com/pytorch/pytorch/issues/45567
"CUDA crash when backproping through a reference to a transposed matrix": the user's `FakeAE`
set `self.dec_w = self.enc_w.T` in `__init__` and used it in `decode`; on the CPU it worked, on
CUDA it crashed. A maintainer (ptrblck) found the real error - "Tensor for argument #3 'mat2' is on
CPU, but expected it to be on GPU" - because `dec_w` is not a parameter (not a leaf), so
`ae.to(device)` never moves it, and advised "reusing `self.enc_w.T` in the forward", which is the
user's own commented-out workaround. Simulated with meta as the accelerator (where, as in the report,
it surfaces in `backward`: the gradient for the CPU `dec_w` comes back on the other device).
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

class FakeAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc_w = nn.Parameter(torch.Tensor(3, 5))
        self.dec_w = self.enc_w.T

        nn.init.normal_(self.enc_w)

    def encode(self, data):
        return F.linear(data, self.enc_w)

    def decode(self, data):
        # return F.linear(data, self.enc_w.T)  # workaround the error
        return F.linear(data, self.dec_w)

    def forward(self, data):
        return self.decode(self.encode(data))

device = "meta"                           # 'cuda'
ae = FakeAE().to(device)
criterion = nn.MSELoss()
optimizer = optim.SGD(ae.parameters(), lr=1)
data = torch.rand((2, 5)).to(device)
'''
CELL = '''
rec = ae(data)
loss = criterion(data, rec)

optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device",
                "returned an invalid gradient")
CULPRITS = ["ae.dec_w"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        return F.linear(data, self.dec_w)",
    "        return F.linear(data, self.enc_w.T)",
)
CLEAN = False
