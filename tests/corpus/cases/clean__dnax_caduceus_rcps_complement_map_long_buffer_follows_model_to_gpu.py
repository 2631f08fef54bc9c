"""Look-alike: Caduceus RCPS embedding and LM head keep the nucleotide `complement_map` as a registered long buffer, so `model.to(device)` moves it with the weights.

Source: https://github.com/kuleshov-group/caduceus/blob/0060a6d8079b6a040fc55d505e15972a327b70a6/caduceus/modeling_rcps.py
`RCPSEmbedding` and `RCPSLMHead` both `register_buffer("complement_map", torch.tensor(..., dtype=torch.long))`;
the embedding reverse-complements the input ids with `torch.gather(self.complement_map...expand(...),
index=torch.flip(x, dims=[-1]))`, and the head indexes its weight with `self.weight[self.complement_map, :]`.
Long index tensors built on the CPU at construction, used on the GPU after `.to(device)`: nothing to
report. Stand-ins: the two RCPS modules as in the file, a tiny backbone in place of the Mamba mixer
(an RC-equivariant channel-flip MLP), and the character tokenizer ids of `[A, C, G, T, N]` with their
complement map as in caduceus/tests/test_rcps.py. The head's `self.weight[self.complement_map, :]`
is written as the equivalent `index_select`, which the simulation supports.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn
from torch.nn import functional as F

class RCPSEmbedding(nn.Module):
    """Embedding layer that supports reverse-complement equivariance."""
    def __init__(self, vocab_size, d_model, complement_map, **factory_kwargs):
        super().__init__()
        self.register_buffer(
            "complement_map",
            torch.tensor(list(OrderedDict(complement_map).values()), dtype=torch.long)
        )
        self.embedding = nn.Embedding(vocab_size, d_model, **factory_kwargs)

    @property
    def weight(self):
        return self.embedding.weight

    def rc(self, x):
        return torch.gather(
            self.complement_map.unsqueeze(0).expand(x.shape[0], -1),
            dim=1,
            index=torch.flip(x, dims=[-1])
        )

    def forward(self, input_ids):
        fwd_out = self.embedding(input_ids)
        rc_out = torch.flip(self.embedding(self.rc(input_ids)), dims=[-2, -1])
        return torch.cat([fwd_out, rc_out], dim=-1)

class RCPSLMHead(nn.Module):
    """LM Head for reverse-complement equivariant inputs."""
    def __init__(self, true_dim, vocab_size, complement_map, **factory_kwargs):
        super().__init__()
        self.register_buffer(
            "complement_map",
            torch.tensor(list(OrderedDict(complement_map).values()), dtype=torch.long)
        )
        self.true_dim = true_dim
        self.lm_head = nn.Linear(true_dim, vocab_size, bias=False, **factory_kwargs)

    @property
    def weight(self):
        return self.lm_head.weight

    def forward(self, x):
        n_channels = x.shape[-1]
        assert n_channels == 2 * self.true_dim, "Input must have 2 * true_dim channels."
        fwd_logits = F.linear(x[..., :n_channels // 2], self.weight, bias=self.lm_head.bias)
        rc_logits = F.linear(
            torch.flip(x[..., n_channels // 2:], dims=[-1]),
            self.weight.index_select(0, self.complement_map),   # self.weight[self.complement_map, :]
            bias=self.lm_head.bias
        )
        return fwd_logits + rc_logits

class TinyRCPSCaduceus(nn.Module):
    """Caduceus-PS reduced: RCPS embedding -> RC-equivariant mixer stand-in -> RCPS LM head."""
    def __init__(self, vocab_size, d_model, complement_map):
        super().__init__()
        self.embeddings = RCPSEmbedding(vocab_size, d_model, complement_map)
        self.mixer = nn.Linear(d_model, d_model)
        self.lm_head = RCPSLMHead(d_model, vocab_size, complement_map)

    def forward(self, input_ids):
        h = self.embeddings(input_ids)
        d = h.shape[-1] // 2
        fwd = self.mixer(h[..., :d])
        rc = torch.flip(self.mixer(torch.flip(h[..., d:], dims=[-2, -1])), dims=[-2, -1])
        return self.lm_head(torch.cat([fwd, rc], dim=-1))

str_to_id = {"[CLS]": 0, "[SEP]": 1, "[PAD]": 2, "[UNK]": 3, "A": 4, "C": 5, "G": 6, "T": 7, "N": 8}
complement = {"A": "T", "C": "G", "G": "C", "T": "A"}
complement_map = {
    str_to_id[k]: str_to_id[complement[k]] if k in complement else v
    for k, v in str_to_id.items()
}

device = torch.device("cuda:0")
model = TinyRCPSCaduceus(vocab_size=len(str_to_id), d_model=32, complement_map=complement_map)
model = model.to(device)
model.eval()

input_ids = torch.randint(4, 8, (2, 128)).to(device)
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
    rc_logits = model(model.embeddings.rc(input_ids))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
