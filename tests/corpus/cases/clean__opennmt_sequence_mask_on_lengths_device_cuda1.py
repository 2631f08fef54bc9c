"""OpenNMT's attention mask is built on the lengths' device, so a model on cuda:1 works.

Source: https://github.com/OpenNMT/OpenNMT-py/pull/1494
"[fix] ensure building sequence mask on same device as lengths": `sequence_mask` used
`torch.arange(0, max_len).type_as(lengths)`, which lands on the current CUDA device, wrong when
the model runs on another GPU; the fix builds it with `device=lengths.device`. Look-alike: the
fixed code with the whole model on cuda:1 while cuda:0 is the default device. Stand-in: the
global attention's masking step
(`~mask` written `mask.logical_not()`: no fake-cuda kernel for `~`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def sequence_mask(lengths, max_len=None):
    batch_size = lengths.numel()
    max_len = max_len or lengths.max()
    return (torch.arange(0, max_len, device=lengths.device)
            .type_as(lengths)
            .repeat(batch_size, 1)
            .lt(lengths.unsqueeze(1)))

class GlobalAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear_in = nn.Linear(dim, dim, bias=False)
        self.linear_out = nn.Linear(dim * 2, dim, bias=False)

    def forward(self, source, memory_bank, memory_lengths):
        align = torch.bmm(self.linear_in(source), memory_bank.transpose(1, 2))
        mask = sequence_mask(memory_lengths, max_len=memory_bank.size(1)).unsqueeze(1)
        align = align.masked_fill(mask.logical_not(), -float('inf'))
        align_vectors = torch.softmax(align, -1)
        c = torch.bmm(align_vectors, memory_bank)
        return torch.tanh(self.linear_out(torch.cat([c, source], 2)))

device = torch.device("cuda:1")
attn = GlobalAttention(16).to(device)
source = torch.randn(3, 1, 16).to(device)
memory_bank = torch.randn(3, 7, 16).to(device)
memory_lengths = torch.tensor([7, 5, 2]).to(device)
'''
CELL = '''
attn_h = attn(source, memory_bank, memory_lengths)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
