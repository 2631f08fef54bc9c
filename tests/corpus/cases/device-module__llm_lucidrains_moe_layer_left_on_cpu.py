"""mixture-of-experts: the `MoE` layer is built on the CPU while the inputs go to cuda; the gating einsum mixes devices.

Source: https://github.com/lucidrains/mixture-of-experts/issues/5
The report: "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu!" from the MoE's gating. The answer in the thread (Lewington-pitsos): "you need to move the MoE to
cuda", with the README-style construction `moe = MoE(dim=768, num_experts=32, hidden_dim=768, ...)`
commented "# init moe on CPU" and then `moe.cuda()`. Stand-in: the package's MoE reduced to top-2
gating (softmax, top-2 dispatch via scatter, no capacity/random policy) and the Experts einsums.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Experts(nn.Module):
    def __init__(self, dim, num_experts=16, hidden_dim=None, activation=nn.GELU):
        super().__init__()
        hidden_dim = hidden_dim if hidden_dim is not None else dim * 4
        self.w1 = nn.Parameter(torch.randn(num_experts, dim, hidden_dim) * dim ** -0.5)
        self.w2 = nn.Parameter(torch.randn(num_experts, hidden_dim, dim) * hidden_dim ** -0.5)
        self.act = activation()

    def forward(self, x):
        hidden = torch.einsum('...nd,...dh->...nh', x, self.w1)
        hidden = self.act(hidden)
        return torch.einsum('...nh,...hd->...nd', hidden, self.w2)

class Top2Gating(nn.Module):
    def __init__(self, dim, num_gates):
        super().__init__()
        self.num_gates = num_gates
        self.w_gating = nn.Parameter(torch.randn(dim, num_gates))

    def forward(self, x):
        raw_gates = torch.einsum('...bnd,...de->...bne', x, self.w_gating)
        raw_gates = raw_gates.softmax(dim=-1)
        gates, indices = raw_gates.topk(2, dim=-1)
        gates = gates / gates.sum(dim=-1, keepdim=True)
        combine = torch.zeros_like(raw_gates).scatter_(-1, indices, gates)   # (b, n, e)
        loss = (raw_gates.mean(dim=-2) * (combine > 0).float().mean(dim=-2)).mean() * self.num_gates ** 2
        return combine, loss

class MoE(nn.Module):
    def __init__(self, dim, num_experts=16, hidden_dim=None, activation=nn.ReLU, loss_coef=1e-2, **kwargs):
        super().__init__()
        self.num_experts = num_experts
        self.gate = Top2Gating(dim, num_gates=num_experts)
        self.experts = Experts(dim, num_experts=num_experts, hidden_dim=hidden_dim, activation=activation)
        self.loss_coef = loss_coef

    def forward(self, inputs):
        combine_tensor, loss = self.gate(inputs)
        expert_inputs = torch.einsum('bnd,bne->bend', inputs, combine_tensor)       # weighted dispatch
        expert_outputs = self.experts(expert_inputs)                                # (b, e, n, d)
        output = expert_outputs.sum(dim=1)
        return output, loss * self.loss_coef

# init moe on CPU
moe = MoE(
    dim = 768,
    num_experts = 8,
    hidden_dim = 768,
    activation = nn.ReLU,
    second_policy_train = 'random',
    second_policy_eval = 'random',
    loss_coef = 1e-2
)
inputs = torch.randn(4, 64, 768).to("cuda:0")
'''
CELL = '''
out, aux_loss = moe(inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["moe"]
FIX = "namespace"
REFERENCE_FIX = '''
moe = moe.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
