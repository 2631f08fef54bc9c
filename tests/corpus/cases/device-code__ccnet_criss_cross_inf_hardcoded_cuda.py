"""CCNet criss-cross attention: the `INF` helper builds its -inf diagonal with a hard-coded `.cuda()`.

Source: https://github.com/Serge-weihao/CCNet-Pure-Pytorch/issues/6
Trying the attention module on CPU tensors (`x = torch.randn(2,64,5,6); y = model(x)`) raised
"Expected object of type torch.FloatTensor but found type torch.cuda.FloatTensor for argument #3
'other'" at `torch.bmm(proj_query_H, proj_key_H) + self.INF(m_batchsize, height, width)`:
`INF` is `-torch.diag(torch.tensor(float("inf")).cuda().repeat(H), 0)...`, so it lands on the GPU
whatever the input's device. The hard-coded `.cuda()` is written `.to("cuda:0")` here (what it
means on a one-GPU machine; the simulator refuses `.cuda()`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def INF(B, H, W):
    return -torch.diag(torch.tensor(float("inf")).to("cuda:0").repeat(H), 0).unsqueeze(0).repeat(B * W, 1, 1)

class CrissCrossAttention(nn.Module):
    def __init__(self, in_dim):
        super().__init__()
        self.query_conv = nn.Conv2d(in_dim, in_dim // 8, kernel_size=1)
        self.key_conv = nn.Conv2d(in_dim, in_dim // 8, kernel_size=1)
        self.value_conv = nn.Conv2d(in_dim, in_dim, kernel_size=1)
        self.softmax = nn.Softmax(dim=3)
        self.INF = INF
        self.gamma = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        m_batchsize, _, height, width = x.size()
        proj_query = self.query_conv(x)
        proj_query_H = proj_query.permute(0, 3, 1, 2).contiguous().view(m_batchsize * width, -1, height).permute(0, 2, 1)
        proj_query_W = proj_query.permute(0, 2, 1, 3).contiguous().view(m_batchsize * height, -1, width).permute(0, 2, 1)
        proj_key = self.key_conv(x)
        proj_key_H = proj_key.permute(0, 3, 1, 2).contiguous().view(m_batchsize * width, -1, height)
        proj_key_W = proj_key.permute(0, 2, 1, 3).contiguous().view(m_batchsize * height, -1, width)
        proj_value = self.value_conv(x)
        proj_value_H = proj_value.permute(0, 3, 1, 2).contiguous().view(m_batchsize * width, -1, height)
        proj_value_W = proj_value.permute(0, 2, 1, 3).contiguous().view(m_batchsize * height, -1, width)
        energy_H = (torch.bmm(proj_query_H, proj_key_H) + self.INF(m_batchsize, height, width)).view(m_batchsize, width, height, height).permute(0, 2, 1, 3)
        energy_W = torch.bmm(proj_query_W, proj_key_W).view(m_batchsize, height, width, width)
        concate = self.softmax(torch.cat([energy_H, energy_W], 3))
        att_H = concate.narrow(3, 0, height).permute(0, 2, 1, 3).contiguous().view(m_batchsize * width, height, height)
        att_W = concate.narrow(3, height, width).contiguous().view(m_batchsize * height, width, width)
        out_H = torch.bmm(proj_value_H, att_H.permute(0, 2, 1)).view(m_batchsize, width, -1, height).permute(0, 2, 3, 1)
        out_W = torch.bmm(proj_value_W, att_W.permute(0, 2, 1)).view(m_batchsize, height, -1, width).permute(0, 2, 1, 3)
        return self.gamma * (out_H + out_W) + x

model = CrissCrossAttention(64)
x = torch.randn(2, 64, 5, 6)
'''
CELL = '''
y = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.bmm(proj_query_H, proj_key_H) + self.INF(m_batchsize, height, width))",
    "torch.bmm(proj_query_H, proj_key_H) + self.INF(m_batchsize, height, width).to(x.device))",
)
CLEAN = False
