"""GPTQ quantization of Qwen: the captured layer kwargs are moved to the GPU, a nested list of tensors is not.

Source: https://github.com/AutoGPTQ/AutoGPTQ/issues/370
`model.quantize` replays each block on the GPU with the kwargs captured from the first block:
`one_kwargs[k] = move_to_device(v, self.data_device) if isinstance(v, torch.Tensor) else v`.
Qwen's blocks take `rotary_pos_emb_list`, a List[Tensor], which that check skips, so the rotary
tables stayed on the CPU and the block raised "found at least two devices, cuda:0 and cpu". The
commenter's fix moves nested lists and tuples too.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

def apply_rotary(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)

class QWenBlock(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)

    def forward(self, hidden_states, rotary_pos_emb_list=None, attention_mask=None):
        q, k, v = self.c_attn(hidden_states).chunk(3, dim=-1)
        cos, sin = rotary_pos_emb_list
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        att = torch.softmax(q @ k.transpose(-1, -2) + attention_mask, dim=-1)
        return self.c_proj(att @ v)

def move_to_device(obj, device):
    return obj.to(device)

data_device = torch.device("cuda:0")
seq, half = 6, 8
angles = torch.arange(seq)[:, None] * torch.ones(half)[None, :] * 0.1
layer_kwargs = {"rotary_pos_emb_list": [torch.cos(angles), torch.sin(angles)],   # captured on the CPU
                "attention_mask": torch.zeros(1, seq, seq)}
layer_input = torch.randn(1, seq, 16)
block = QWenBlock().to(data_device)
one_kwargs = {}
for k, v in layer_kwargs.items():
    if isinstance(v, torch.Tensor):
        one_kwargs[k] = move_to_device(v, data_device)
    else:
        one_kwargs[k] = v
'''
CELL = '''
out = block(move_to_device(layer_input, data_device), **one_kwargs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["one_kwargs['rotary_pos_emb_list']"]
FIX = "namespace"
REFERENCE_FIX = '''
one_kwargs["rotary_pos_emb_list"] = [t.to(data_device) for t in one_kwargs["rotary_pos_emb_list"]]
'''
REFERENCE_EDIT = None
CLEAN = False
