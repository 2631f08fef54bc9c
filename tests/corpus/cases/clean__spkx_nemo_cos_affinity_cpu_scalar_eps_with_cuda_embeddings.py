"""Look-alike: NeMo's diarization clustering keeps speaker embeddings on the CPU, moves them to the GPU per scale, and divides by a CPU 0-dim `eps` tensor default.

Source: https://github.com/NVIDIA/NeMo (nemo/collections/asr/parts/utils/offline_clustering.py)
"NOTE: Due to CUDA memory limit, the embedding vectors in embeddings_in_scales are stored in `cpu`
device": `getMultiScaleCosAffinityMatrix` moves each scale with `.half().to(device)`;
`getCosAffinityMatrix` casts to float and calls `cos_similarity(emb, emb)`, whose default
`eps=torch.tensor(3.5e-4)` is a CPU 0-dim tensor added to CUDA norms (allowed: a 0-dim CPU tensor acts
as a scalar); `estimateNumofSpeakers` builds the Laplacian and runs `eigvalsh` on the affinity's device
when `cuda=True`. Stand-in: one scale (the repeat_interleave fusion across scales is left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch.linalg import eigvalsh

def cos_similarity(emb_a, emb_b, eps=torch.tensor(3.5e-4)):
    if emb_a.shape[0] == 1 or emb_b.shape[0] == 1:
        raise ValueError("Number of feature vectors should be greater than 1")
    a_norm = emb_a / (torch.norm(emb_a, dim=1).unsqueeze(1) + eps)
    b_norm = emb_b / (torch.norm(emb_b, dim=1).unsqueeze(1) + eps)
    res = torch.mm(a_norm, b_norm.transpose(0, 1))
    res.fill_diagonal_(1)
    return res

def ScalerMinMax(X):
    v_min, v_max = X.min(), X.max()
    return (X - v_min) / (v_max - v_min)

def getCosAffinityMatrix(emb):
    emb = emb.float()
    sim_d = cos_similarity(emb, emb)
    return ScalerMinMax(sim_d)

def getLaplacian(X):
    X.fill_diagonal_(0)
    D = torch.sum(torch.abs(X), dim=1)
    D = torch.diag_embed(D)
    return D - X

def eigValueSh(laplacian, cuda, device):
    if cuda:
        laplacian = laplacian.float().to(device)
    else:
        laplacian = laplacian.float().to(torch.device("cpu"))
    return eigvalsh(laplacian)

def estimateNumofSpeakers(affinity_mat, max_num_speakers, cuda=False):
    laplacian = getLaplacian(affinity_mat)
    lambdas = eigValueSh(laplacian, cuda=cuda, device=affinity_mat.device)
    lambdas = torch.sort(lambdas)[0]
    lambda_gap = lambdas[1:] - lambdas[:-1]
    num_of_spk = torch.argmax(lambda_gap[: min(max_num_speakers, lambda_gap.shape[0])]) + 1
    return num_of_spk, lambdas, lambda_gap

device = torch.device("cuda:0")
# embeddings extracted by TitaNet on the GPU, kept on the CPU between steps (clustering_diarizer)
embeddings_in_scales = [torch.randn(12, 32)]
'''
CELL = '''
emb_t = embeddings_in_scales[-1].half().to(device)
mat = getCosAffinityMatrix(emb_t)
num_of_spk, lambdas, lambda_gap = estimateNumofSpeakers(mat, max_num_speakers=8, cuda=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
