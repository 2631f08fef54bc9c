"""Look-alike: tf-bind-transformer mixes cached protein embeddings loaded on the CPU with fresh ones from the GPU ESM model, and moves each to `device` before concatenating and padding.

Source: https://github.com/lucidrains/tf-bind-transformer/blob/5f65a471d3f38be4a587fd9e9bc9960a462e0dbd/tf_bind_transformer/protein_utils.py
`calc_protein_representations_with_subunits` maps `get_repr_fn` (a disk cache around
`get_single_esm_repr`, whose ESM model runs on CUDA unless PROTEIN_EMBED_USE_CPU) over each
transcription factor's subunits, then `map(partial(to_device, device = device), ...)` before
`torch.cat`; the length masks are built with `device = device` and the padded batch is returned
`.to(device)`. The commit ("fix not on same device error when fetching some proteins from cache,
others from model") added that move; this is the fixed code, so the CPU cache hits are fine.
Stand-ins: the cache is a dict of CPU tensors (what `torch.load` returns), the ESM-1b model a small
embedding + linear encoder on cuda:0, and the binding head a small cross-attention on DNA embeddings.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from functools import partial
from torch.nn.utils.rnn import pad_sequence

def exists(val):
    return val is not None

def to_device(t, *, device):
    return t.to(device)

PROTEIN_EMBED_USE_CPU = False
ESM_EMBED_DIM = 64
AA = "ACDEFGHIKLMNPQRSTVWY"

class TinyESM(nn.Module):
    """esm1b_t33_650M_UR50S stand-in: token embedding + one layer, returns representations[33]."""
    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Embedding(len(AA) + 2, ESM_EMBED_DIM)
        self.layer = nn.Linear(ESM_EMBED_DIM, ESM_EMBED_DIM)
    def forward(self, tokens, repr_layers=(33,)):
        return {"representations": {33: torch.tanh(self.layer(self.embed_tokens(tokens)))}}

def batch_converter(protein_str):
    ids = [0] + [AA.index(c) + 2 for c in protein_str] + [1]
    return torch.tensor([ids])

esm_model = TinyESM()
if not PROTEIN_EMBED_USE_CPU:
    esm_model = esm_model.to("cuda:0")

def get_single_esm_repr(protein_str):
    batch_tokens = batch_converter(protein_str)
    if not PROTEIN_EMBED_USE_CPU:
        batch_tokens = batch_tokens.to("cuda:0")
    with torch.no_grad():
        results = esm_model(batch_tokens, repr_layers=[33])
    token_representations = results["representations"][33]
    return token_representations[0][1 : len(protein_str) + 1]

# cache_fn(get_single_esm_repr, path = 'esm/proteins'): hits come back from torch.load on the CPU
PROTEIN_CACHE = {"MKVLAAGIVGAL": torch.randn(12, ESM_EMBED_DIM),
                 "MSDNQRLLEEAW": torch.randn(12, ESM_EMBED_DIM)}

def cached_get_single_esm_repr(protein_str):
    if protein_str in PROTEIN_CACHE:
        return PROTEIN_CACHE[protein_str]
    out = get_single_esm_repr(protein_str)
    PROTEIN_CACHE[protein_str] = out
    return out

def calc_protein_representations_with_subunits(proteins, get_repr_fn, *, device):
    representations = []
    for subunits in proteins:
        subunits = (subunits,) if not isinstance(subunits, tuple) else subunits
        subunits_representations = list(map(get_repr_fn, subunits))
        subunits_representations = list(map(partial(to_device, device = device), subunits_representations))
        subunits_representations = torch.cat(subunits_representations, dim = 0)
        representations.append(subunits_representations)
    lengths = [seq_repr.shape[0] for seq_repr in representations]
    masks = torch.arange(max(lengths), device = device)[None, :] <  torch.tensor(lengths, device = device)[:, None]
    padded_representations = pad_sequence(representations, batch_first = True)
    return padded_representations.to(device), masks.to(device)

def get_esm_repr(proteins, device):
    return calc_protein_representations_with_subunits(proteins, cached_get_single_esm_repr, device = device)

class BindingHead(nn.Module):
    """Cross attention of DNA embeddings over the padded protein embeddings."""
    def __init__(self, dna_dim, protein_dim, dim = 32):
        super().__init__()
        self.to_q = nn.Linear(dna_dim, dim)
        self.to_kv = nn.Linear(protein_dim, dim * 2)
        self.to_logits = nn.Linear(dim, 1)
    def forward(self, dna_embed, protein_embed, protein_mask):
        q = self.to_q(dna_embed)
        k, v = self.to_kv(protein_embed).chunk(2, dim = -1)
        sim = torch.einsum('b i d, b j d -> b i j', q, k)
        sim = sim.masked_fill(protein_mask[:, None, :].logical_not(), -torch.finfo(sim.dtype).max)
        out = torch.einsum('b i j, b j d -> b i d', sim.softmax(dim = -1), v)
        return self.to_logits(out.mean(dim = 1)).squeeze(-1)

device = torch.device("cuda:0")
head = BindingHead(dna_dim = 48, protein_dim = ESM_EMBED_DIM).to(device)
dna_embed = torch.randn(3, 96, 48).to(device)               # enformer embeddings of the peaks
proteins = ["MKVLAAGIVGAL", ("MSDNQRLLEEAW", "MTTPSHLSDRYE"), "MAEEKQLRS"]   # cached, heterodimer, new
'''
CELL = '''
protein_embed, protein_mask = get_esm_repr(proteins, device = device)
with torch.no_grad():
    logits = head(dna_embed, protein_embed, protein_mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
