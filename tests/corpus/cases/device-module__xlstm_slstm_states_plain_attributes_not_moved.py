"""xLSTM-pytorch: the sLSTM block keeps its recurrent states as plain tensor attributes, so `model.to(device)` leaves them behind.

Source: https://github.com/styalai/xLSTM-pytorch/issues/2
"Buffers not Registered Properly and Hence not Moved with the Model": in `sLSTMblock` (and
`mLSTMblock`) `init_states` stores `self.nt_1`, `self.ct_1`, `self.ht_1`, `self.mt_1` as ordinary
attributes, so moving the model to the GPU (by hand or by Lightning) does not move them and the first
forward mixes cuda activations with CPU states. The fix registers them as buffers. Stand-in: the
sLSTM block reduced (fewer layer norms, a 2-block BlockDiagonal), inside an xLSTM language model
with an embedding and a head; the causal conv is left out (the simulator cannot run a padded
conv1d on a fake GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class BlockDiagonal(nn.Module):
    def __init__(self, in_features, out_features, num_blocks, bias=True):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(in_features // num_blocks, out_features // num_blocks, bias=bias)
                                     for _ in range(num_blocks)])

    def forward(self, x):
        chunks = x.chunk(len(self.blocks), dim=-1)
        return torch.cat([block(c) for block, c in zip(self.blocks, chunks)], dim=-1)

class sLSTMblock(nn.Module):
    def __init__(self, x_example, depth, dropout=0.2):
        super().__init__()
        self.input_size = x_example.shape[2]
        self.ln = nn.LayerNorm(self.input_size)
        self.drop = nn.Dropout(dropout)
        self.i_gate = BlockDiagonal(self.input_size, self.input_size, depth)
        self.f_gate = BlockDiagonal(self.input_size, self.input_size, depth)
        self.o_gate = BlockDiagonal(self.input_size, self.input_size, depth)
        self.z_gate = BlockDiagonal(self.input_size, self.input_size, depth)
        self.ri_gate = BlockDiagonal(self.input_size, self.input_size, depth, bias=False)
        self.rf_gate = BlockDiagonal(self.input_size, self.input_size, depth, bias=False)
        self.ro_gate = BlockDiagonal(self.input_size, self.input_size, depth, bias=False)
        self.rz_gate = BlockDiagonal(self.input_size, self.input_size, depth, bias=False)
        self.GN = nn.LayerNorm(self.input_size)
        self.proj = nn.Linear(self.input_size, self.input_size)
        self.init_states(x_example)

    def init_states(self, x):
        self.nt_1 = torch.zeros(1, 1, x.shape[2])
        self.ct_1 = torch.zeros(1, 1, x.shape[2])
        self.ht_1 = torch.zeros(1, 1, x.shape[2])
        self.mt_1 = torch.zeros(1, 1, x.shape[2])

    def forward(self, x):
        x = self.ln(x)
        x_conv = F.silu(self.drop(x))          # causal conv left out

        # start sLSTM
        ht_1 = self.ht_1
        i = torch.exp(self.i_gate(x_conv) + self.ri_gate(ht_1))
        f = torch.exp(self.f_gate(x_conv) + self.rf_gate(ht_1))
        m = torch.max(torch.log(f) + self.mt_1.select(1, 0).unsqueeze(1), torch.log(i))
        i = torch.exp(torch.log(i) - m)
        f = torch.exp(torch.log(f) + self.mt_1.select(1, 0).unsqueeze(1) - m)
        self.mt_1 = m.detach()
        o = torch.sigmoid(self.o_gate(x) + self.ro_gate(ht_1))
        z = torch.tanh(self.z_gate(x) + self.rz_gate(ht_1))
        ct = torch.mean(f * self.ct_1 + i * z, [0, 1], keepdim=True)
        self.ct_1 = ct.detach()
        nt = torch.mean(f * self.nt_1 + i, [0, 1], keepdim=True)
        self.nt_1 = nt.detach()
        ht = torch.mean(o * (ct / nt), [0, 1], keepdim=True)
        self.ht_1 = ht.detach()
        # end sLSTM
        return self.proj(self.GN(ht)) + x

class xLSTM(nn.Module):
    def __init__(self, vocab_size, x_example, depth=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, x_example.shape[2])
        self.layers = nn.ModuleList([sLSTMblock(x_example, depth)])
        self.head = nn.Linear(x_example.shape[2], vocab_size)

    def forward(self, idx):
        x = self.embedding(idx)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)

device = torch.device("cuda:0")
x_example = torch.zeros(4, 8, 16)
model = xLSTM(vocab_size=65, x_example=x_example).to(device)
idx = torch.randint(0, 65, (4, 8)).to(device)
'''
CELL = '''
logits = model(idx)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.layers[0]"]
FIX = "namespace"
REFERENCE_FIX = '''
block = model.layers[0]
block.nt_1, block.ct_1, block.ht_1, block.mt_1 = (t.to(device) for t in (block.nt_1, block.ct_1, block.ht_1, block.mt_1))
'''
REFERENCE_EDIT = None
CLEAN = False
