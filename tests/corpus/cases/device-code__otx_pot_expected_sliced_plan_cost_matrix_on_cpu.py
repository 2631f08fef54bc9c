"""POT `ot.sliced.expected_sliced_plan` on CUDA samples: the plan is on the GPU, the distance matrix on the CPU.

Source: https://github.com/PythonOT/POT/issues/845
The user ran `plan, cost = ot.sliced.expected_sliced_plan(X, X, n_projections=1)` with
`X = torch.randn(4, 2, device="cuda")` (also with weights, dense and sparse) and every call failed with a
device mismatch; on the CPU all worked. The report's diagnosis: the function computes the transport plan
on CUDA, then multiplies it with a distance matrix created on the CPU. Stand-in: the expected sliced plan
reduced to averaging per-projection 1D monotone plans (sorting), and the cost matrix built in a
preallocated CPU buffer before the plan-weighted sum.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def get_random_projections(d, n_projections, like):
    P = torch.randn(d, n_projections, dtype=like.dtype, device=like.device)
    return P / torch.linalg.norm(P, dim=0, keepdim=True)

def sliced_plans(X_s, X_t, projections):
    n = X_s.shape[0]
    Xs_p = X_s @ projections                      # (n, n_proj)
    Xt_p = X_t @ projections
    rank_s = torch.argsort(torch.argsort(Xs_p, dim=0), dim=0)
    rank_t = torch.argsort(torch.argsort(Xt_p, dim=0), dim=0)
    # 1D monotone plan: i is matched to the target point with the same rank
    same = (rank_s.T[:, :, None] == rank_t.T[:, None, :]).to(X_s.dtype)
    return same / n                               # (n_proj, n, n)

def expected_sliced_plan(X_s, X_t, a=None, b=None, n_projections=20, metric="sqeuclidean"):
    d = X_s.shape[1]
    projections = get_random_projections(d, n_projections, like=X_s)
    plan = sliced_plans(X_s, X_t, projections).mean(0)
    M = torch.zeros((X_s.shape[0], X_t.shape[0]), dtype=X_s.dtype)
    M += torch.cdist(X_s, X_t) ** 2 if metric == "sqeuclidean" else torch.cdist(X_s, X_t)
    cost = (plan * M).sum()
    return plan, cost

device = torch.device("cuda:0")       # torch.device("cuda") in the report
X = torch.randn(4, 2, device=device)
w = torch.rand(4, device=device)
w = w / w.sum()
'''
CELL = '''
plan, cost = expected_sliced_plan(X, X, n_projections=1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["M"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("M = torch.zeros((X_s.shape[0], X_t.shape[0]), dtype=X_s.dtype)",
                  "M = torch.zeros((X_s.shape[0], X_t.shape[0]), dtype=X_s.dtype, device=X_s.device)")
CLEAN = False
