"""alegnn GRNN on a GPU: `GatedGRNN`'s default gates `q_hat = torch.ones(1)` / `q_check = torch.ones(1)` live on the CPU.

Source: https://github.com/alelab-upenn/graph-neural-networks/issues/6
"GatedGRNN does not send all the parameters to the correct device" (alegnn/utils/graphML.py): the
ungated `HiddenState` layer calls `GatedGRNN(...)` without gates, so the defaults made once at import
time, `torch.ones(1)` on the CPU, multiply the cuda `Ax` (`Ax = q_hat*Ax`). The fix (PR #7) sends
`q_hat` and `q_check` to the device of the data. Stand-in: `LSIGF` as in the repo, `GatedGRNN` without
its edge-gating branch (`torch.index_select` with a device scalar written as `Ax.select`), and the
`HiddenState` layer reduced to its parameters, `addGSO` and `forward`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn as nn

def LSIGF(h, S, x, b=None):
    F, E, K, G = h.shape
    N = S.shape[1]
    B = x.shape[0]
    x = x.reshape([B, 1, G, N])
    S = S.reshape([1, E, N, N])
    z = x.reshape([B, 1, 1, G, N]).repeat(1, E, 1, 1, 1)
    for k in range(1, K):
        x = torch.matmul(x, S)
        xS = x.reshape([B, E, 1, G, N])
        z = torch.cat((z, xS), dim=2)
    y = torch.matmul(z.permute(0, 4, 1, 2, 3).reshape([B, N, E*K*G]),
                     h.reshape([F, E*K*G]).permute(1, 0)).permute(0, 2, 1)
    if b is not None:
        y = y + b
    return y

def GatedGRNN(a, b, S, x, z0, sigma, q_hat = torch.ones(1), q_check = torch.ones(1),
                   xBias=None, zBias = None):
    H, E, K, F = a.shape
    N = S.shape[1]
    B, T = x.shape[0], x.shape[1]
    if xBias is not None:
        xBias = xBias.reshape(1,H,1)
    if zBias is not None:
        zBias = zBias.reshape(1,H,1)
    Ax = LSIGF(a, S, x.reshape((B*T,F,N)), b = xBias)
    Ax = Ax.reshape((B,T,H,N))
    Ax = q_hat*Ax
    zt = z0
    for t in range(1,T+1):
        Bzt = LSIGF(b, S, zt.reshape((B,H,N)), b = zBias)
        this_q_check = q_check
        Bzt = this_q_check*Bzt
        Axt = Ax.select(1, t-1)
        Axt = Axt.reshape(B, H, N)
        zt = sigma(Axt + Bzt).unsqueeze(1)
        if t == 1:
            z = zt
        else:
            z = torch.cat((z, zt), dim = 1)
    return z

class HiddenState(nn.Module):
    def __init__(self, F, H, K, nonlinearity=torch.tanh, E=1, bias=True):
        super().__init__()
        self.F, self.H, self.K, self.E = F, H, K, E
        self.S = None
        self.sigma = nonlinearity
        self.aWeights = nn.parameter.Parameter(torch.Tensor(H, E, K, F))
        self.bWeights = nn.parameter.Parameter(torch.Tensor(H, E, K, H))
        self.xBias = nn.parameter.Parameter(torch.Tensor(H, 1)) if bias else None
        self.zBias = nn.parameter.Parameter(torch.Tensor(H, 1)) if bias else None
        stdv = 1. / math.sqrt(F * K)
        for p in self.parameters():
            p.data.uniform_(-stdv, stdv)

    def addGSO(self, S):
        self.S = S

    def forward(self, x, z0):
        return GatedGRNN(self.aWeights, self.bWeights, self.S, x, z0, self.sigma,
                         xBias=self.xBias, zBias=self.zBias)

device = torch.device("cuda:0")
N, F, H, T, B = 10, 3, 8, 5, 4
S = torch.rand(1, N, N)
S = (S + S.transpose(1, 2)) / (2 * N)

hiddenState = HiddenState(F, H, K=3)
hiddenState.to(device)
hiddenState.addGSO(S.to(device))

x = torch.randn(B, T, F, N, device=device)
z0 = torch.zeros(B, H, N, device=device)
'''
CELL = '''
with torch.no_grad():
    z = hiddenState(x, z0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["q_hat"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    Ax = q_hat*Ax",
    "    q_hat = q_hat.to(x.device)\n    q_check = q_check.to(x.device)\n    Ax = q_hat*Ax",
)
CLEAN = False
