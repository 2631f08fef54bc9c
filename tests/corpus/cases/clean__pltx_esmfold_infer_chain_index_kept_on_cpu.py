"""ESMFold `infer`: the encoded inputs are moved to the model's device, `chain_index` is returned as a CPU tensor.

Source: https://github.com/facebookresearch/esm/blob/main/esm/esmfold/v1/esmfold.py
`ESMFold.infer(sequences)` builds `aatype, mask, residx, linker_mask, chain_index` on the CPU with
`batch_encode_sequences`, moves only the first four to `self.device` (a property reading the device of
the `esm_s_combine` parameter) and runs the forward pass; `chain_index` never goes to the GPU and is
stored in the output dict next to the GPU tensors (`output["chain_index"] = chain_index`) for the PDB
writer. A CPU tensor in a dict of CUDA outputs, on purpose; it runs.
Stand-ins: `batch_encode_sequences`, a tiny trunk producing `plddt` and `atom37_atom_exists`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

restypes = "ARNDCQEGHILKMFPSTWYV"

def batch_encode_sequences(sequences, residue_index_offset=512, chain_linker="G" * 25):
    n = max(len(s) for s in sequences)
    aatype = torch.zeros(len(sequences), n, dtype=torch.int64)
    mask = torch.zeros(len(sequences), n)
    for i, s in enumerate(sequences):
        aatype[i, : len(s)] = torch.tensor([restypes.index(c) for c in s])
        mask[i, : len(s)] = 1
    residx = torch.arange(n).expand(len(sequences), n).clone()
    linker_mask = torch.ones(len(sequences), n, 37)
    chain_index = torch.zeros(len(sequences), n, dtype=torch.int64)
    return aatype, mask, residx, linker_mask, chain_index

class ESMFold(nn.Module):
    def __init__(self, c_s=32):
        super().__init__()
        self.esm_s_combine = nn.Parameter(torch.zeros(3))
        self.embedding = nn.Embedding(23, c_s)
        self.plddt_head = nn.Linear(c_s, 37)

    @property
    def device(self):
        return self.esm_s_combine.device

    def forward(self, aa, mask=None, residx=None, masking_pattern=None, num_recycles=None):
        s = self.embedding(aa) * mask.unsqueeze(-1)
        return {"plddt": torch.sigmoid(self.plddt_head(s)) * 100,
                "atom37_atom_exists": mask.unsqueeze(-1).expand(*mask.shape, 37)}

    @torch.no_grad()
    def infer(self, sequences, residx=None, num_recycles=None):
        if isinstance(sequences, str):
            sequences = [sequences]
        aatype, mask, _residx, linker_mask, chain_index = batch_encode_sequences(sequences)
        if residx is None:
            residx = _residx
        aatype, mask, residx, linker_mask = map(
            lambda x: x.to(self.device), (aatype, mask, residx, linker_mask)
        )
        output = self.forward(aatype, mask=mask, residx=residx, num_recycles=num_recycles)
        output["atom37_atom_exists"] = output["atom37_atom_exists"] * linker_mask
        output["mean_plddt"] = (output["plddt"] * output["atom37_atom_exists"]).sum(
            dim=(1, 2)
        ) / output["atom37_atom_exists"].sum(dim=(1, 2))
        output["chain_index"] = chain_index
        return output

model = ESMFold().eval().to("cuda:0")            # model = esm.pretrained.esmfold_v1().eval().cuda()
sequence = "MKTVRQERLKSIVRILERSKEPVSGAQLAEELSVSRQVIVQDIAYLRSLGYNIVATPRGYVLAGG"
'''
CELL = '''
output = model.infer(sequence, num_recycles=4)
mean_plddt = output["mean_plddt"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
