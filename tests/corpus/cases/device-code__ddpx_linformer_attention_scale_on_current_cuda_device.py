"""Linformer under DistributedDataParallel: the attention head builds its scale `sqrt(dim)` with `.type(Q.type())`, which lands on the current CUDA device (cuda:0), while the process of rank 1 runs on cuda:1.

Source: https://github.com/tatp22/linformer-pytorch/issues/22
The user spawned one process per GPU (`mp.spawn`, `model.to(rank)`, `DDP(model, device_ids=[rank])`) and
the process of rank 1 failed in `LinearAttentionHead.forward` with "Expected all tensors to be on the
same device". The maintainer's fix (0.19.3) was one line: `P_bar = Q/torch.sqrt(torch.tensor(self.dim)
.type(Q.type()))` became `...type(Q.type())).to(Q.device)`: a type string such as
`torch.cuda.FloatTensor` carries no device index, so the copy goes to the process's current device,
cuda:0, never set to the rank's GPU.
Stand-ins: a one-layer, one-head LinformerLM in the library's names; `.type(Q.type())` cannot run on
a CPU build of torch, so it is written as the copy it performs (`.to(dtype=Q.dtype, device="cuda:0")`,
the current device); DDP's input move to device_ids[0] without a process group, in the process rank=1.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def get_linear(input_size, dim, bias=True):
    return nn.Linear(input_size, dim, bias)

class LinearAttentionHead(nn.Module):
    def __init__(self, dim, dropout, E_proj, F_proj):
        super().__init__()
        self.E = E_proj
        self.F = F_proj
        self.dim = dim
        self.dropout = nn.Dropout(dropout)

    def forward(self, Q, K, V, **kwargs):
        K = torch.transpose(K, 1, 2)
        K = self.E(K)
        Q = torch.matmul(Q, K)
        # library: torch.sqrt(torch.tensor(self.dim).type(Q.type())) -> copy to the current device
        P_bar = Q/torch.sqrt(torch.tensor(self.dim).to(dtype=Q.dtype, device="cuda:0"))
        P_bar = P_bar.softmax(dim=-1)
        P_bar = self.dropout(P_bar)
        V = torch.transpose(V, 1, 2)
        V = self.F(V)
        V = torch.transpose(V, 1, 2)
        return torch.matmul(P_bar, V)

class MHAttention(nn.Module):
    def __init__(self, input_size, dim, channels, dim_k, nhead, dropout):
        super().__init__()
        self.heads = nn.ModuleList()
        self.to_q = nn.ModuleList()
        self.to_k = nn.ModuleList()
        self.to_v = nn.ModuleList()
        E_proj = get_linear(input_size, dim_k)
        F_proj = get_linear(input_size, dim_k)
        for head in range(nhead):
            self.heads.append(LinearAttentionHead(dim, dropout, E_proj, F_proj))
            self.to_q.append(get_linear(channels, dim, bias=False))
            self.to_k.append(get_linear(channels, dim, bias=False))
            self.to_v.append(get_linear(channels, dim, bias=False))
        self.w_o = get_linear(dim * nhead, channels)

    def forward(self, tensor, **kwargs):
        head_outputs = []
        for index, head in enumerate(self.heads):
            Q = self.to_q[index](tensor)
            K = self.to_k[index](tensor)
            V = self.to_v[index](tensor)
            head_outputs.append(head(Q, K, V, **kwargs))
        out = torch.cat(head_outputs, dim=2)
        return self.w_o(torch.nn.functional.gelu(out))

class Linformer(nn.Module):
    def __init__(self, input_size, channels, dim_k, nhead=1, dropout=0.1):
        super().__init__()
        self.layers = nn.ModuleList()
        self.layers.append(nn.ModuleList([
            MHAttention(input_size, channels // nhead, channels, dim_k, nhead, dropout),
            nn.LayerNorm(channels)]))

    def forward(self, tensor, **kwargs):
        for layer in self.layers:
            module, norm = layer[0], layer[1]
            tensor = norm(module(tensor, **kwargs) + tensor)
        return tensor

class LinformerLM(nn.Module):
    def __init__(self, num_tokens, input_size, channels, dim_k, nhead=1):
        super().__init__()
        self.to_token_emb = nn.Embedding(num_tokens, channels)
        self.linformer = Linformer(input_size, channels, dim_k, nhead)
        self.to_logits = nn.Linear(channels, num_tokens)

    def forward(self, tensor, **kwargs):
        tensor = self.to_token_emb(tensor)
        tensor = self.linformer(tensor, **kwargs)
        return self.to_logits(tensor)

class DDP(nn.Module):
    # stand-in for DistributedDataParallel: forward moves the inputs to device_ids[0]
    def __init__(self, module, device_ids):
        super().__init__()
        self.module = module
        self.device = torch.device("cuda", device_ids[0])
    def forward(self, *inputs, **kwargs):
        inputs = tuple(t.to(self.device) if isinstance(t, torch.Tensor) else t for t in inputs)
        return self.module(*inputs, **kwargs)

rank, world_size = 1, 2          # demo_basic(rank, world_size) in the second spawned process
model = LinformerLM(num_tokens=200, input_size=16, channels=8, dim_k=4, nhead=1)
model = model.to(f"cuda:{rank}")   # model.to(rank)
ddp_model = DDP(model, device_ids=[rank])
tokens = torch.randint(200, (3, 16))
'''
CELL = '''
with torch.no_grad():
    outputs = ddp_model(tokens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.linformer.layers[0][0].heads[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('P_bar = Q/torch.sqrt(torch.tensor(self.dim).to(dtype=Q.dtype, device="cuda:0"))',
                  'P_bar = Q/torch.sqrt(torch.tensor(self.dim).to(dtype=Q.dtype, device="cuda:0")).to(Q.device)')
CLEAN = False
