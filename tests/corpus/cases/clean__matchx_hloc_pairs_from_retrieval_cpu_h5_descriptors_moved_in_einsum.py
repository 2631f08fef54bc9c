"""hloc pairs_from_retrieval: global descriptors read from HDF5 on the CPU, moved into the similarity einsum.

Source: https://github.com/cvg/Hierarchical-Localization/blob/master/hloc/pairs_from_retrieval.py
Look-alike: `get_descriptors` stacks the NetVLAD descriptors from the h5 file into a CPU tensor and
`main` keeps `query_desc`/`db_desc` there; only the einsum operands are moved
(`query_desc.to(device), db_desc.to(device)`). The self-match mask is a numpy array that
`pairs_from_score_matrix` turns into a tensor and sends to `scores.device` before `masked_fill_`, and the
top-k indices come back with `.cpu()`. Stand-ins: the h5 reads are random descriptors; the final
`.numpy()` / pair listing is dropped (simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch


def get_descriptors(names, path=None, name2idx=None, key="global_descriptor"):
    desc = [np.random.rand(256).astype(np.float32) for n in names]   # fd[n][key].__array__()
    return torch.from_numpy(np.stack(desc, 0)).float()


def pairs_from_score_matrix(scores, invalid, num_select, min_score=None):
    assert scores.shape == invalid.shape
    if isinstance(scores, np.ndarray):
        scores = torch.from_numpy(scores)
    invalid = torch.from_numpy(invalid).to(scores.device)
    if min_score is not None:
        invalid |= scores < min_score
    scores.masked_fill_(invalid, float("-inf"))

    topk = torch.topk(scores, num_select, dim=1)
    indices = topk.indices.cpu()
    valid = topk.values.isfinite().cpu()
    return indices, valid


device = "cuda:0"          # "cuda" if torch.cuda.is_available() else "cpu"
db_names = [f"db/{i:04d}.jpg" for i in range(40)]
query_names = [f"query/{i:04d}.jpg" for i in range(8)]
db_desc = get_descriptors(db_names)
query_desc = get_descriptors(query_names)
'''
CELL = '''
sim = torch.einsum("id,jd->ij", query_desc.to(device), db_desc.to(device))
self_mask = np.array(query_names)[:, None] == np.array(db_names)[None]
indices, valid = pairs_from_score_matrix(sim, self_mask, 5, min_score=0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
