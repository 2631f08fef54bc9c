"""DeepCORAL's tests fail in `feature_covariance_mat`: the helper's `torch.ones(n)` is float32, the test features are double.

Source: https://github.com/SSARCandy/DeepCORAL/issues/1
The user trained fine with `python3 main.py` but `python -m DeepCORAL.tests.test` errored in
`test_CORAL_forward`, `test_CORAL_backward` and `test_feature_covariance_mat`, at
`tmp = ones_t.matmul(d)` in `feature_covariance_mat`. The tests build double-precision features (as
`gradcheck` needs) while the helper makes `ones_t = torch.ones(n).view(1, -1)` in the default float32,
so the matmul mixes dtypes. A correct helper builds the ones like its input. Stand-in: the repo's
`feature_covariance_mat` / CORAL forward as plain functions (the legacy autograd.Function no longer
runs), the test's double inputs, CUDA off.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch

CUDA = False

def feature_covariance_mat(n, d):
    ones_t = torch.ones(n).view(1, -1)
    if CUDA:
        ones_t = ones_t.cuda()
    tmp = ones_t.matmul(d)
    covariance_mat = (d.t().matmul(d) - (tmp.t().matmul(tmp) / n)) / (n - 1)
    return covariance_mat

def forbenius_norm(mat):
    return (mat ** 2).sum() ** 0.5

def coral_forward(source, target):
    d = source.shape[1]
    ns, nt = source.shape[0], target.shape[0]
    cs = feature_covariance_mat(ns, source)
    ct = feature_covariance_mat(nt, target)
    return forbenius_norm(cs - ct) ** 2 / (4 * d * d)

# tests/test.py: double-precision inputs, as torch.autograd.gradcheck requires
source = torch.randn(16, 8, dtype=torch.double, requires_grad=True)
target = torch.randn(12, 8, dtype=torch.double, requires_grad=True)
'''
CELL = '''
cs = feature_covariance_mat(source.shape[0], source)
loss = coral_forward(source, target)
loss.backward()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "expected m1 and m2")
CULPRITS = ["source"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ones_t = torch.ones(n).view(1, -1)", "ones_t = torch.ones(n, dtype=d.dtype, device=d.device).view(1, -1)")
CLEAN = False
