"""Look-alike: OpenFold in bfloat16 keeps `aatype` int64 and its masks float32, casting masks to the activations' dtype.

Source: https://github.com/aqlaboratory/openfold/blob/main/openfold/model/model.py
`AlphaFold.iteration` reads `feats["aatype"]` (int64) and the float32 `seq_mask`/`msa_mask`, builds
`pair_mask = seq_mask[..., None] * seq_mask[..., None, :]`, and passes the masks to the stacks as
`msa_mask=feats["msa_mask"].to(dtype=m.dtype)`, `pair_mask=pair_mask.to(dtype=z.dtype)`, so a bf16
model runs on a float32 feature dict. Stand-in: an input embedder and one evoformer-like update.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class InputEmbedder(nn.Module):
    def __init__(self, c_m=16, c_z=8):
        super().__init__()
        self.tf_m = nn.Embedding(21, c_m)
        self.linear_tf_z_i = nn.Embedding(21, c_z)
        self.linear_tf_z_j = nn.Embedding(21, c_z)
    def forward(self, aatype):
        m = self.tf_m(aatype)[None]
        z = self.linear_tf_z_i(aatype)[:, None] + self.linear_tf_z_j(aatype)[None, :]
        return m, z

class EvoformerBlock(nn.Module):
    def __init__(self, c_m=16, c_z=8):
        super().__init__()
        self.msa_transition = nn.Linear(c_m, c_m)
        self.pair_transition = nn.Linear(c_z, c_z)
    def forward(self, m, z, msa_mask, pair_mask):
        m = m + self.msa_transition(m) * msa_mask[..., None]
        z = z + self.pair_transition(z) * pair_mask[..., None]
        return m, z

class AlphaFold(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_embedder = InputEmbedder()
        self.evoformer = EvoformerBlock()
    def iteration(self, feats):
        seq_mask = feats["seq_mask"]
        pair_mask = seq_mask[..., None] * seq_mask[..., None, :]
        m, z = self.input_embedder(feats["aatype"])
        m, z = self.evoformer(m, z, msa_mask=feats["msa_mask"].to(dtype=m.dtype),
                              pair_mask=pair_mask.to(dtype=z.dtype))
        return m, z
    def forward(self, batch):
        return self.iteration(batch)

model = AlphaFold().to(torch.bfloat16).eval()
n_res = 12
batch = {"aatype": torch.randint(0, 20, (n_res,)),
         "seq_mask": torch.ones(n_res),
         "msa_mask": torch.ones(1, n_res)}
'''
CELL = '''
with torch.no_grad():
    m, z = model(batch)
print(m.dtype, batch["seq_mask"].dtype, batch["aatype"].dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
