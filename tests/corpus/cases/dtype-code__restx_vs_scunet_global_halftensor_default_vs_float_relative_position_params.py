"""vs-scunet after vs-femasr: a global `torch.set_default_tensor_type(torch.HalfTensor)` meets SCUNet's hard-coded float32 parameter.

Source: https://github.com/HolyWu/vs-scunet/issues/4
In one VapourSynth script the user ran FeMaSR and then SCUNet (`SCUNet(clip=clip, model=4,
cuda_graphs=True, nvfuser=True)`) and got "RuntimeError: expected scalar type Half but found Float"
inside `network_scunet.py` (`m_down1`). The fp16 path of these plugins called
`torch.set_default_tensor_type(torch.HalfTensor)` globally, so the SCUNet built afterwards got half
Linear/conv weights and a half `static_input`, except `WMSA.relative_position_params`, created with an
explicit `dtype=torch.float`; adding it to the attention scores promotes them to float32 and the
`einsum` with the half `v` fails. The fix (commit "Don't globally set default floating point tensor
type") drops the global default and the hard-coded `dtype=torch.float` on that parameter.
Stand-ins: SCUNet reduced to a head conv and one window-attention block (WMSA 'W' type, einops
rearranges written as reshape/permute); CPU half precision (the CPU message reads "expected scalar
type Float but found Half").
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.init import trunc_normal_

# earlier in the script: vsfemasr.femasr(...) on an RGBH clip did this globally
torch.set_default_tensor_type(torch.HalfTensor)

class WMSA(nn.Module):
    def __init__(self, input_dim, output_dim, head_dim, window_size, type):
        super(WMSA, self).__init__()
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.head_dim = head_dim
        self.scale = self.head_dim ** -0.5
        self.n_heads = input_dim // head_dim
        self.window_size = window_size
        self.type = type
        self.embedding_layer = nn.Linear(self.input_dim, 3 * self.input_dim, bias=True)
        self.relative_position_params = nn.Parameter(torch.zeros((2 * window_size - 1) * (2 * window_size - 1), self.n_heads, dtype=torch.float))
        self.linear = nn.Linear(self.input_dim, self.output_dim)
        trunc_normal_(self.relative_position_params, std=.02)
        self.relative_position_params = torch.nn.Parameter(self.relative_position_params.view(2 * window_size - 1, 2 * window_size - 1, self.n_heads).transpose(1, 2).transpose(0, 1))
        cord = torch.tensor([[i, j] for i in range(window_size) for j in range(window_size)])
        relation = cord[:, None, :] - cord[None, :, :] + window_size - 1
        self.register_buffer('relation', relation, persistent=False)

    def forward(self, x):
        b, H, W, c = x.shape
        p = self.window_size
        x = x.reshape(b, H // p, p, W // p, p, c).permute(0, 1, 3, 2, 4, 5).reshape(b, (H // p) * (W // p), p * p, c)
        qkv = self.embedding_layer(x)
        qkv = qkv.reshape(b, x.shape[1], p * p, 3 * self.n_heads, self.head_dim).permute(3, 0, 1, 2, 4)
        q, k, v = qkv.chunk(3, dim=0)
        sim = torch.einsum('hbwpc,hbwqc->hbwpq', q, k) * self.scale
        sim = sim + self.relative_embedding()[:, None, None]
        probs = nn.functional.softmax(sim, dim=-1)
        output = torch.einsum('hbwij,hbwjc->hbwic', probs, v)
        output = output.permute(1, 2, 3, 0, 4).reshape(b, x.shape[1], p * p, c)
        output = self.linear(output)
        output = output.reshape(b, H // p, W // p, p, p, c).permute(0, 1, 3, 2, 4, 5).reshape(b, H, W, c)
        return output

    def relative_embedding(self):
        return self.relative_position_params[:, self.relation[:, :, 0], self.relation[:, :, 1]]

class SCUNet(nn.Module):
    def __init__(self, in_nc=3, dim=16, head_dim=8, window_size=4):
        super(SCUNet, self).__init__()
        self.m_head = nn.Conv2d(in_nc, dim, 3, 1, 1, bias=False)
        self.ln1 = nn.LayerNorm(dim)
        self.msa = WMSA(dim, dim, head_dim, window_size, 'W')
        self.m_tail = nn.Conv2d(dim, in_nc, 3, 1, 1, bias=False)

    def forward(self, x0):
        x1 = self.m_head(x0)
        y = x1.permute(0, 2, 3, 1)
        y = y + self.msa(self.ln1(y))
        return self.m_tail(y.permute(0, 3, 1, 2)) + x0

module = SCUNet()                         # vsscunet.scunet(...) on an RGBS clip: fp16 is False, no module.half()
module.eval()
static_input = torch.zeros((1, 3, 16, 16))   # torch.zeros(..., device=device): half under the global default
'''
CELL = '''
with torch.no_grad():
    output = module(static_input)
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "expected scalar type Float but found Half",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["module"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.n_heads, dtype=torch.float))", "self.n_heads))")
CLEAN = False
