"""RetNet training on CUDA: `get_parallel_decay_mask` builds the decay mask with torch.zeros on the CPU.

Source: https://github.com/syncdoth/RetNet/issues/1
"def get_parallel_decay_mask(self, length): Tensor created in above function is default created on
cpu. If train on cuda, it will throw error like below: RuntimeError: Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cpu!" The author confirmed and fixed
it (the later version builds the mask from `torch.arange(length, device=self.decay.device)`).
In the reported version the mask is `torch.zeros(self.num_heads, length, length)` filled with
`self.gamma**(n - m)`, then multiplied into the CUDA retention scores. Stand-in: the repo's
MultiScaleRetention (parallel path only), RetNetBlock and RetNet with one block.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def split_heads(tensors, bsz, seqlen, num_heads):
    return [x.view(bsz, seqlen, num_heads, -1).transpose(1, 2) for x in tensors]

class MultiScaleRetention(nn.Module):
    def __init__(self, hidden_size, qk_dim, num_heads, use_bias=True, use_bias_in_out=True):
        super().__init__()
        self.gn = nn.GroupNorm(num_heads, hidden_size)
        self.swish = nn.SiLU()
        self.w_query = nn.Linear(hidden_size, qk_dim, bias=use_bias)
        self.w_key = nn.Linear(hidden_size, qk_dim, bias=use_bias)
        self.w_value = nn.Linear(hidden_size, hidden_size, bias=use_bias)
        self.w_out = nn.Linear(hidden_size, hidden_size, bias=use_bias_in_out)
        self.w_gate = nn.Linear(hidden_size, hidden_size, bias=use_bias_in_out)
        self.qk_dim = qk_dim
        self.num_heads = num_heads
        s = -torch.log(torch.tensor(32.))
        e = -torch.log(torch.tensor(512.))
        gamma = 1 - torch.exp(-torch.linspace(s, e, num_heads))  # [h,]
        self.gamma = nn.Parameter(gamma, requires_grad=False)

    def forward(self, x, forward_impl='parallel', past_kv=None):
        bsz, seqlen = x.size(0), x.size(1)
        query = self.w_query(x)
        key = self.w_key(x)
        value = self.w_value(x)
        query, key, value = split_heads((query, key, value), bsz, seqlen, self.num_heads)
        decay_mask = self.get_parallel_decay_mask(seqlen)
        retention_out = self.parallel_retention(query, key, value, decay_mask)
        out = self.w_out(self.swish(self.w_gate(x)) * retention_out)
        return out, None

    def get_parallel_decay_mask(self, length):
        decay_mask = torch.zeros(self.num_heads, length, length)
        for n in range(length):
            for m in range(0, n + 1):
                decay_mask[:, n, m] = self.gamma**(n - m)
        return decay_mask

    def group_norm(self, x):
        transposed = x.transpose(1, 2)
        concat = transposed.reshape(transposed.size(0), transposed.size(1), -1)
        norm = self.gn(concat.transpose(1, 2)).transpose(1, 2)
        return norm

    def parallel_retention(self, q, k, v, decay_mask):
        retention = q @ k.transpose(-1, -2)
        retention = retention * decay_mask
        output = retention @ v
        output = self.group_norm(output)
        return output

class RetNetBlock(nn.Module):
    def __init__(self, hidden_size, qk_dim, mlp_proj_size, num_heads):
        super().__init__()
        self.layer_norm = nn.LayerNorm(hidden_size)
        self.msr = MultiScaleRetention(hidden_size, qk_dim, num_heads, use_bias=False)
        self.ffn = nn.Sequential(nn.Linear(hidden_size, mlp_proj_size), nn.GELU(),
                                 nn.Linear(mlp_proj_size, hidden_size))

    def forward(self, x, forward_impl='parallel', past_kv=None):
        y, curr_kv = self.msr(self.layer_norm(x), forward_impl=forward_impl, past_kv=past_kv)
        y = y + x
        out = self.ffn(self.layer_norm(y)) + y
        return out, curr_kv

class RetNet(nn.Module):
    def __init__(self, num_layers, vocab_size, hidden_size, qk_dim, mlp_proj_size, num_heads):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.blocks = nn.ModuleList(
            RetNetBlock(hidden_size, qk_dim, mlp_proj_size, num_heads) for _ in range(num_layers))

    def forward(self, input_ids, forward_impl='parallel', past_kv=None):
        h = self.embedding(input_ids)
        for i, block in enumerate(self.blocks):
            h, kv = block(h, forward_impl=forward_impl, past_kv=past_kv)
        return h

device = torch.device("cuda:0")
model = RetNet(1, 100, 32, 32, 64, 4).to(device)
input_ids = torch.randint(0, 100, (2, 6), device=device)
'''
CELL = '''
out = model(input_ids, forward_impl='parallel')
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.blocks[0].msr"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        return decay_mask\n",
    "        return decay_mask.to(self.gamma.device)\n",
)
CLEAN = False
