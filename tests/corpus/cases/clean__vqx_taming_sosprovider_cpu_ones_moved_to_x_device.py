"""Look-alike: taming-transformers' unconditional `SOSProvider` builds the start token on the CPU and moves it to the input's device.

Source: https://github.com/CompVis/taming-transformers/blob/master/taming/modules/util.py
For unconditional training the cond stage is `SOSProvider`: `encode(x)` makes `c = torch.ones(x.shape[0],
1) * self.sos_token` (no device) and then `c = c.long().to(x.device)`. `Net2NetTransformer.forward`
(taming/models/cond_transformer.py) concatenates those indices with the VQGAN code indices and runs
the GPT on `cz_indices[:, :-1]`. The bare `torch.ones` looks like a CPU stray, but it follows the
images to the GPU before use. Nothing to report.
Stand-ins: the first stage (one conv encoder + nearest-code lookup, VQModel.encode's return shape),
a minimal GPT (embeddings + MLP block + head); pkeep = 1.0; `[:, :-1]` / `[:, n-1:]` slices are
written with `narrow` (the simulated GPU cannot slice).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class SOSProvider(nn.Module):
    # for unconditional training
    def __init__(self, sos_token, quantize_interface=True):
        super().__init__()
        self.sos_token = sos_token
        self.quantize_interface = quantize_interface

    def encode(self, x):
        # get batch size from data and replicate sos_token
        c = torch.ones(x.shape[0], 1)*self.sos_token
        c = c.long().to(x.device)
        if self.quantize_interface:
            return c, None, [None, None, c]
        return c

class VQModel(nn.Module):
    """stand-in first stage: encode(x) -> (quant, loss, (perplexity, encodings, indices))"""
    def __init__(self, n_embed=1024, embed_dim=64):
        super().__init__()
        self.encoder = nn.Conv2d(3, embed_dim, 16, stride=16)
        self.embedding = nn.Embedding(n_embed, embed_dim)

    def encode(self, x):
        z = self.encoder(x).permute(0, 2, 3, 1)
        flat = z.reshape(-1, z.shape[-1])
        d = (flat ** 2).sum(1, keepdim=True) + (self.embedding.weight ** 2).sum(1) - 2 * flat @ self.embedding.weight.t()
        indices = torch.argmin(d, dim=1)
        quant = self.embedding(indices).view(z.shape).permute(0, 3, 1, 2)
        return quant, None, (None, None, indices)

class GPT(nn.Module):
    """stand-in for taming.modules.transformer.mingpt.GPT"""
    def __init__(self, vocab_size=1024, block_size=257, n_embd=128):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, n_embd)
        self.pos_emb = nn.Parameter(torch.zeros(1, block_size, n_embd))
        self.ln = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx):
        t = idx.shape[1]
        h = self.tok_emb(idx) + self.pos_emb.narrow(1, 0, t)
        h = h + self.mlp(self.ln(h))
        return self.head(self.ln(h)), None

class Net2NetTransformer(nn.Module):
    def __init__(self, sos_token=0, pkeep=1.0):
        super().__init__()
        self.first_stage_model = VQModel().eval()
        self.cond_stage_model = SOSProvider(sos_token)
        self.permuter = nn.Identity()
        self.transformer = GPT()
        self.pkeep = pkeep

    @torch.no_grad()
    def encode_to_z(self, x):
        quant_z, _, info = self.first_stage_model.encode(x)
        indices = info[2].view(quant_z.shape[0], -1)
        indices = self.permuter(indices)
        return quant_z, indices

    @torch.no_grad()
    def encode_to_c(self, c):
        quant_c, _, [_, _, indices] = self.cond_stage_model.encode(c)
        if len(indices.shape) > 2:
            indices = indices.view(c.shape[0], -1)
        return quant_c, indices

    def forward(self, x, c):
        _, z_indices = self.encode_to_z(x)
        _, c_indices = self.encode_to_c(c)
        a_indices = z_indices
        cz_indices = torch.cat((c_indices, a_indices), dim=1)
        target = z_indices
        logits, _ = self.transformer(cz_indices.narrow(1, 0, cz_indices.shape[1] - 1))
        logits = logits.narrow(1, c_indices.shape[1] - 1, logits.shape[1] - c_indices.shape[1] + 1)
        return logits, target

model = Net2NetTransformer().to("cuda:0")
batch = {"image": torch.randn(2, 3, 256, 256, device="cuda:0")}
'''
CELL = '''
x = batch["image"]
c = x                      # unconditional: the cond stage only reads the batch size
logits, target = model(x, c)
loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), target.reshape(-1))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
