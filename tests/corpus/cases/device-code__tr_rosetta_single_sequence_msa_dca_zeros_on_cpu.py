"""tr-rosetta-pytorch `preprocess`: for a single-sequence MSA the DCA features are a CPU `torch.zeros`, concatenated with the GPU 1-D features.

Source: https://github.com/lucidrains/tr-rosetta-pytorch/pull/5
"Fixing a bug in sequence preprocessing: When cuda is available, and a sequence of length = 1 is
loaded, it is left on the cpu and not copied to the gpu. That creates an error: Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (... wrapper__cat)".
`preprocess` moves the one-hot MSA and weights to `d()` (cuda when available), but when the MSA has
one row it skips `fast_dca` and uses `torch.zeros((ncol, ncol, 442)).float()` with no device, which
the final `torch.cat` meets. The PR appends `.to(d())`. Reduced: the a3m file by its parsed integer
array (`parse_a3m`), `fast_dca` left out (not reached for one row); the "GPU" is meta, so `d()`
returns 'meta'.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

def d(tensor=None):
    if tensor is None:
        return 'meta'                  # 'cuda' if torch.cuda.is_available() else 'cpu'
    return 'meta' if tensor.is_meta else 'cpu'

def parse_a3m(lines):                  # reads the .a3m file; here its lines
    alphabet = np.array(list("ARNDCQEGHILKMFPSTWYV-"), dtype='|S1').view(np.uint8)
    msa = np.array([list(s) for s in lines], dtype='|S1').view(np.uint8)
    for i in range(alphabet.shape[0]):
        msa[msa == alphabet[i]] = i
    msa[msa > 20] = 20
    return msa

def msa2pssm(msa1hot, w):
    beff = w.sum()
    f_i = (w[:, None, None] * msa1hot).sum(dim=0) / beff + 1e-9
    h_i = (-f_i * torch.log(f_i)).sum(dim=1)
    return torch.cat((f_i, h_i[:, None]), dim=1)

def reweight(msa1hot, cutoff):
    id_min = msa1hot.shape[1] * cutoff
    id_mtx = torch.einsum('ikl,jkl->ij', msa1hot, msa1hot)
    id_mask = id_mtx > id_min
    w = 1. / id_mask.float().sum(dim=-1)
    return w

def preprocess(msa_file, wmin=0.8, ns=21):
    a3m = torch.from_numpy(parse_a3m(msa_file)).long()
    nrow, ncol = a3m.shape
    msa1hot = F.one_hot(a3m, ns).float().to(d())
    w = reweight(msa1hot, wmin).float().to(d())
    # 1d sequence
    f1d_seq = msa1hot[0, :, :20].float()
    f1d_pssm = msa2pssm(msa1hot, w)
    f1d = torch.cat((f1d_seq, f1d_pssm), dim=1)
    f1d = f1d[None, :, :].reshape((1, ncol, 42))
    # 2d sequence
    f2d_dca = fast_dca(msa1hot, w) if nrow > 1 else torch.zeros((ncol, ncol, 442)).float()
    f2d_dca = f2d_dca[None, :, :, :]
    f2d = torch.cat((
        f1d[:, :, None, :].repeat(1, 1, ncol, 1),
        f1d[:, None, :, :].repeat(1, ncol, 1, 1),
        f2d_dca
    ), dim=-1)
    f2d = f2d.view(1, ncol, ncol, 442 + 2*42)
    return f2d.permute((0, 3, 2, 1))

msa_file = ["MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ"]     # a single-sequence MSA
'''
CELL = '''
msa = preprocess(msa_file)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["f2d_dca"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.zeros((ncol, ncol, 442)).float()\n", "torch.zeros((ncol, ncol, 442)).float().to(d())\n")
CLEAN = False
