"""Look-alike: ProteinMPNN's run script keeps amino-acid bias/omit masks as numpy and converts them with `device=` per batch.

Source: https://github.com/dauparas/ProteinMPNN/blob/main/protein_mpnn_run.py
`omit_AAs_np` and `bias_AAs_np` are built once as numpy arrays on the host; inside the sampling loop
they are turned into tensors with `torch.tensor(..., device=device)`, the decoding-order noise is
`torch.randn(chain_M.shape, device=X.device)`, and `tied_featurize` returns the batch on `device`.
Everything the model sees is on cuda:0. Stand-in: a one-layer encoder/decoder with the same sample
signature; the numpy masks on the host are deliberate.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

alphabet = "ACDEFGHIKLMNPQRSTVWYX"

class ProteinMPNN(nn.Module):
    def __init__(self, hidden_dim=32, num_letters=21):
        super().__init__()
        self.W_e = nn.Linear(12, hidden_dim)
        self.W_out = nn.Linear(hidden_dim, num_letters)
    def sample(self, X, randn, S_true, chain_mask, chain_encoding_all, residue_idx, mask=None,
               temperature=1.0, omit_AAs_np=None, bias_AAs_np=None, chain_M_pos=None, bias_by_res=None):
        device = X.device
        h = self.W_e(X.flatten(-2))
        decoding_order = torch.argsort((chain_mask + 0.0001) * torch.abs(randn))
        omit_AA_mask_flat = torch.tensor(omit_AAs_np, device=device)
        bias = torch.tensor(bias_AAs_np, device=device, dtype=torch.float32)
        logits = self.W_out(h) / temperature + bias + bias_by_res
        logits = logits - 1e8 * omit_AA_mask_flat.float()
        probs = torch.softmax(logits, -1) * mask[..., None]
        return {"probs": probs, "decoding_order": decoding_order}

def tied_featurize(batch, device):
    L = batch["length"]
    X = torch.randn(1, L, 4, 3).to(device)
    S = torch.randint(0, 20, (1, L)).to(device)
    mask = torch.ones(1, L).to(device)
    chain_M = torch.ones(1, L).to(device)
    chain_encoding_all = torch.ones(1, L, dtype=torch.long).to(device)
    residue_idx = torch.arange(L)[None].to(device)
    bias_by_res_all = torch.zeros(1, L, 21).to(device)
    return X, S, mask, chain_M, chain_encoding_all, residue_idx, bias_by_res_all

device = torch.device("cuda:0")
model = ProteinMPNN().eval().to(device)
omit_AAs_list = "CX"
omit_AAs_np = np.array([AA in omit_AAs_list for AA in alphabet]).astype(np.float32)
bias_AAs_np = np.zeros(len(alphabet))
batch_clones = {"name": "5L33", "length": 20}
'''
CELL = '''
with torch.no_grad():
    X, S, mask, chain_M, chain_encoding_all, residue_idx, bias_by_res_all = tied_featurize(batch_clones, device)
    randn_2 = torch.randn(chain_M.shape, device=X.device)
    sample_dict = model.sample(X, randn_2, S, chain_M, chain_encoding_all, residue_idx, mask=mask,
                               temperature=0.1, omit_AAs_np=omit_AAs_np, bias_AAs_np=bias_AAs_np,
                               chain_M_pos=chain_M, bias_by_res=bias_by_res_all)
print(sample_dict["probs"].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
