"""Look-alike: minGPT's Trainer wraps the GPT in DataParallel over the GPUs; the causal mask is a registered buffer and the loss is computed inside forward on each replica.

Source: https://github.com/karpathy/minGPT/blob/master/mingpt/trainer.py
The original minGPT Trainer "takes over whatever gpus are on the system":
`self.model = torch.nn.DataParallel(self.model).to(self.device)`, then `logits, loss = model(x, y)` and
`loss = loss.mean()  # collapse all losses if they are scattered on multiple gpus`. In mingpt/model.py,
`CausalSelfAttention` registers `mask` (a lower-triangular matrix) with `register_buffer`, so each replica
gets its own copy, `pos_emb` is a Parameter, and the targets are scattered with the inputs. Every replica
works on one GPU. Stand-ins: a one-block GPT, and `nn.DataParallel` with hand-made
scatter/replicate/gather as on a 2-GPU machine (from the nnAudio case), gathering the (logits, loss) pair.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import math
import torch
import torch.nn as nn
from torch.nn import functional as F

class DataParallel(nn.DataParallel):
    # stand-in: nn.DataParallel on a machine with GPUs 0 and 1, torch's own forward; scatter,
    # replicate, parallel_apply and gather done by hand (a CPU build has no NCCL). Like torch's
    # replicate, it copies parameters and buffers to each GPU and leaves other attributes as they are.
    def __init__(self, module, device_ids=(0, 1)):
        nn.Module.__init__(self)
        self.module, self.dim = module, 0
        self.device_ids = list(device_ids)
        self.output_device = self.device_ids[0]
        self.src_device_obj = torch.device(f"cuda:{self.device_ids[0]}")

    def scatter(self, inputs, kwargs, device_ids):
        chunks = [t.chunk(len(device_ids)) for t in inputs]
        return (tuple(tuple(c[i].to(f"cuda:{d}") for c in chunks) for i, d in enumerate(device_ids)),
                tuple(kwargs for _ in device_ids))

    def replicate(self, module, device_ids):
        replicas = [module]
        for d in device_ids[1:]:
            replica = copy.deepcopy(module)
            for m in replica.modules():
                for k, p in m._parameters.items():
                    if p is not None:
                        m._parameters[k] = nn.Parameter(p.detach().to(f"cuda:{d}"), p.requires_grad)
                for k, b in m._buffers.items():
                    if b is not None:
                        m._buffers[k] = b.to(f"cuda:{d}")
            replicas.append(replica)
        return replicas

    def parallel_apply(self, replicas, inputs, kwargs):
        return [r(*i, **k) for r, i, k in zip(replicas, inputs, kwargs)]

    def gather(self, outputs, output_device):
        def one(ts):
            ts = [t.to(f"cuda:{output_device}") for t in ts]
            if ts[0].dim() == 0:
                ts = [t.unsqueeze(0) for t in ts]
            return torch.cat(ts, dim=self.dim)
        return tuple(one(list(ts)) for ts in zip(*outputs))

class GPTConfig:
    embd_pdrop = 0.1
    resid_pdrop = 0.1
    attn_pdrop = 0.1
    def __init__(self, vocab_size, block_size, **kwargs):
        self.vocab_size = vocab_size
        self.block_size = block_size
        for k, v in kwargs.items():
            setattr(self, k, v)

class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.key = nn.Linear(config.n_embd, config.n_embd)
        self.query = nn.Linear(config.n_embd, config.n_embd)
        self.value = nn.Linear(config.n_embd, config.n_embd)
        self.attn_drop = nn.Dropout(config.attn_pdrop)
        self.resid_drop = nn.Dropout(config.resid_pdrop)
        self.proj = nn.Linear(config.n_embd, config.n_embd)
        # causal mask to ensure that attention is only applied to the left in the input sequence
        self.register_buffer("mask", torch.tril(torch.ones(config.block_size, config.block_size))
                                     .view(1, 1, config.block_size, config.block_size))
        self.n_head = config.n_head

    def forward(self, x, layer_past=None):
        B, T, C = x.size()
        k = self.key(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = self.query(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = self.value(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float('-inf'))
        att = F.softmax(att, dim=-1)
        att = self.attn_drop(att)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_drop(self.proj(y))

class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln1 = nn.LayerNorm(config.n_embd)
        self.ln2 = nn.LayerNorm(config.n_embd)
        self.attn = CausalSelfAttention(config)
        self.mlp = nn.Sequential(nn.Linear(config.n_embd, 4 * config.n_embd), nn.GELU(),
                                 nn.Linear(4 * config.n_embd, config.n_embd), nn.Dropout(config.resid_pdrop))
    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        return x

class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.tok_emb = nn.Embedding(config.vocab_size, config.n_embd)
        self.pos_emb = nn.Parameter(torch.zeros(1, config.block_size, config.n_embd))
        self.drop = nn.Dropout(config.embd_pdrop)
        self.blocks = nn.Sequential(*[Block(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(config.n_embd)
        self.head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.block_size = config.block_size

    def forward(self, idx, targets=None):
        b, t = idx.size()
        assert t <= self.block_size, "Cannot forward, model block size is exhausted."
        token_embeddings = self.tok_emb(idx)
        position_embeddings = self.pos_emb[:, :t, :]
        x = self.drop(token_embeddings + position_embeddings)
        x = self.blocks(x)
        x = self.ln_f(x)
        logits = self.head(x)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

mconf = GPTConfig(65, 16, n_layer=1, n_head=4, n_embd=32)
model = GPT(mconf)
# Trainer.__init__: take over whatever gpus are on the system
device = "cuda:0"          # torch.cuda.current_device()
model = DataParallel(model).to(device)
x = torch.randint(0, 65, (4, 16)).to(device)
y = torch.randint(0, 65, (4, 16)).to(device)
'''
CELL = '''
with torch.no_grad():
    logits, loss = model(x, y)
    loss = loss.mean()  # collapse all losses if they are scattered on multiple gpus
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
