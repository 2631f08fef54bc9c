"""Look-alike: GPN-Star keeps its phylogenetic tables in a plain (non-Module) `GPNStarPhyloInfo` on the CPU and moves them to `hidden_states.device` at the top of every forward.

Source: https://github.com/songlab-cal/gpn/blob/99293f823a7f01dd5f9a05a7e2d7db701cda9228/gpn/star/model.py
`GPNStarModel.forward` does `self.phylo_info.in_clade_phylo_dist.to(hidden_states.device)`, the same
for `phylo_dist_pairwise` and `clade_labels`, indexes them with `target_species`, averages distances
per clade with `compute_clade_means` (zeros made with `device=A.device, dtype=A.dtype`, `scatter_add_`),
and casts the one-hot clade mask to `hidden_states.dtype`; `FIRETimeBias` casts the float64 distances
to float32 inside. Tensors that `model.to(device)` never sees, moved where they are used: nothing to
report. Stand-ins: GPNStarPhyloInfo built from small numpy tables (clades precomputed instead of the
networkx clustering, `max_evol_dist` from numpy), the target / source embeddings and FIRE bias as in
the file, clade pooling reduced to a time-weighted mean, the encoder to one clade cross-attention;
the tensor / list indexing (`phylo_dist_pairwise[target_species]`, `source_ids[..., species]`) is
written with the equivalent `index_select`, which the simulation supports.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class Config:
    vocab_size = 6
    hidden_size = 32
    num_attention_heads = 4
    time_enc = "fire_1"

class GPNStarPhyloInfo:
    def __init__(self, pairwise, in_clade, clade_dict):
        self.phylo_dist_pairwise = torch.tensor(pairwise)          # float64, CPU
        self.in_clade_phylo_dist = torch.tensor(in_clade)          # float64, CPU
        self.clade_dict = clade_dict
        self.clade_labels = torch.zeros(pairwise.shape[0], dtype=torch.int64)
        for clade_id, species in self.clade_dict.items():
            for s in species:
                self.clade_labels[s] = clade_id
        self.max_evol_dist = float(pairwise.max())

class FIRETimeBias(nn.Module):
    def __init__(self, max_dist, fire_hidden_size=16):
        super().__init__()
        self.c = nn.Parameter(torch.tensor(100, dtype=torch.float32))
        self.mlp = nn.Sequential(nn.Linear(1, fire_hidden_size, bias=False), nn.SiLU(),
                                 nn.Linear(fire_hidden_size, 1, bias=False))
        self.max_dist = max_dist
    def forward(self, rel_pos):
        rel_pos = rel_pos[..., None].to(torch.float32)
        c = self.c.clamp(min=0)
        rel_pos = torch.log(c * rel_pos + 1) / torch.log(c * self.max_dist + 1)
        return self.mlp(rel_pos).squeeze(-1)

class GPNStarEmbedding(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.input_embed = nn.Embedding(config.vocab_size, config.hidden_size)
    def forward(self, input_ids=None):
        return self.input_embed(input_ids.to(torch.int))          # (B, L, T, H)

class GPNStarSourceModule(nn.Module):
    def __init__(self, config, max_evol_dist):
        super().__init__()
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.time_scale = int(config.time_enc.split("_")[1])
        self.embed_positions = FIRETimeBias(max_evol_dist)
    def forward(self, source_ids, clade_dict, in_clade_phylo_dist):
        in_clade_time_bias = self.embed_positions(in_clade_phylo_dist * self.time_scale)   # (N,)
        pooled = []
        for clade, species in clade_dict.items():
            species = list(species)
            idx = torch.tensor(species, device=source_ids.device)
            emb = self.embed(source_ids.index_select(-1, idx).to(torch.int))           # (B, L, N_c, H)
            w = torch.softmax(in_clade_time_bias.index_select(0, idx), dim=-1)
            pooled.append((emb * w[:, None]).sum(dim=-2))
        return torch.stack(pooled, dim=-2)                                              # (B, L, C, H)

class GPNStarModel(nn.Module):
    def __init__(self, config, phylo_info):
        super().__init__()
        self.phylo_info = phylo_info
        self.target_embedding = GPNStarEmbedding(config)
        self.source_embedding = GPNStarSourceModule(config, phylo_info.max_evol_dist)
        self.dist_proj = nn.Linear(1, 1)
        self.to_q = nn.Linear(config.hidden_size, config.hidden_size)
        self.to_kv = nn.Linear(config.hidden_size, 2 * config.hidden_size)

    def forward(self, input_ids=None, source_ids=None, target_species=None):
        hidden_states = self.target_embedding(input_ids=input_ids)                      # (B, L, T, H)
        clade_dict = self.phylo_info.clade_dict
        in_clade_phylo_dist = self.phylo_info.in_clade_phylo_dist.to(hidden_states.device)
        phylo_dist_pairwise = self.phylo_info.phylo_dist_pairwise.to(hidden_states.device)
        clade_labels = self.phylo_info.clade_labels.to(hidden_states.device)

        source_embeddings = self.source_embedding(source_ids, clade_dict, in_clade_phylo_dist)

        phylo_dist = phylo_dist_pairwise.index_select(0, target_species.reshape(-1)).view(
            *target_species.shape, -1)                                                  # (B, T, N)
        phylo_dist = self.compute_clade_means(phylo_dist, clade_labels, len(clade_dict))  # (B, T, C)
        target_clades = clade_labels.index_select(0, target_species.reshape(-1)).view(
            target_species.shape)                                                       # (B, T)
        attention_mask = F.one_hot(target_clades, num_classes=phylo_dist.size(-1)).to(
            hidden_states.dtype)
        attention_mask = attention_mask * torch.finfo(hidden_states.dtype).min          # (B, T, C)

        q = self.to_q(hidden_states)
        k, v = self.to_kv(source_embeddings).chunk(2, dim=-1)
        scores = torch.einsum("bltd,blcd->bltc", q, k) / q.shape[-1] ** 0.5
        bias = self.dist_proj(phylo_dist.to(hidden_states.dtype)[..., None]).squeeze(-1)
        scores = scores + (bias + attention_mask)[:, None]
        return torch.einsum("bltc,blcd->bltd", scores.softmax(dim=-1), v)

    @staticmethod
    def compute_clade_means(A, indices, C):
        B, T, N = A.shape
        A_flat = A.reshape(-1, N)
        indices_expanded = indices.unsqueeze(0).expand(A_flat.shape[0], N)
        sums = torch.zeros(A_flat.shape[0], C, device=A.device, dtype=A.dtype)
        counts = torch.zeros(A_flat.shape[0], C, device=A.device, dtype=A.dtype)
        sums.scatter_add_(dim=1, index=indices_expanded, src=A_flat)
        ones = torch.ones_like(A_flat)
        counts.scatter_add_(dim=1, index=indices_expanded, src=ones)
        counts = counts.clamp(min=1)
        means_flat = sums / counts
        return means_flat.view(B, T, C)

rng = np.random.default_rng(0)
n_species = 6
pts = rng.normal(size=(n_species, 2))
pairwise = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))                   # (N, N) float64
in_clade = rng.uniform(0.1, 1.0, size=n_species)                                  # (N,) float64
clade_dict = {0: {0, 1, 2}, 1: {3, 4}, 2: {5}}
phylo_info = GPNStarPhyloInfo(pairwise, in_clade, clade_dict)

device = torch.device("cuda:0")
model = GPNStarModel(Config(), phylo_info).to(device)
model.eval()
B, L = 2, 64
input_ids = torch.randint(0, 4, (B, L, 2)).to(device)                # two target species
source_ids = torch.randint(0, 4, (B, L, n_species)).to(device)
target_species = torch.tensor([[0, 3], [1, 5]]).to(device)
'''
CELL = '''
with torch.no_grad():
    hidden = model(input_ids=input_ids, source_ids=source_ids, target_species=target_species)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
