"""Ax GPMES with `torch_device='cuda'`: the max-value-entropy candidate set is drawn on the CPU.

Source: https://github.com/facebook/Ax/pull/2123
An AxClient with `Models.GPMES(num_trials=-1, model_kwargs={'torch_device': 'cuda'})` fails on the
first GP step ("RuntimeError" from torch): in `botorch_mes.py` the bounds are built with
`device=self.device`, but `candidate_set = torch.rand(candidate_size, bounds_.size(1))` defaults to
the CPU and is then scaled by the cuda bounds. The PR creates the candidate set on `self.device`.
Stand-in: a MaxValueEntropySearch-shaped model with its `gen` reduced to the candidate set and a
posterior-mean score (`select` in place of `bounds_[0]` for the fake-cuda simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class MaxValueEntropySearch:
    def __init__(self, torch_device, torch_dtype=torch.double):
        self.device = torch.device(torch_device)
        self.dtype = torch_dtype

    def fit(self, Xs, Ys):
        self.Xs = [X.to(device=self.device, dtype=self.dtype) for X in Xs]
        self.Ys = [Y.to(device=self.device, dtype=self.dtype) for Y in Ys]
        self.y_best = torch.cat(self.Ys).max()

    def gen(self, n, bounds, candidate_size=1000):
        bounds_ = torch.tensor(bounds, dtype=self.dtype, device=self.device)
        bounds_ = bounds_.transpose(0, 1)
        candidate_set = torch.rand(candidate_size, bounds_.size(1))
        candidate_set = bounds_.select(0, 0) + (bounds_.select(0, 1) - bounds_.select(0, 0)) * candidate_set
        scores = -((candidate_set.unsqueeze(1) - self.Xs[0].unsqueeze(0)) ** 2).sum(-1).min(-1).values
        return candidate_set, scores

model = MaxValueEntropySearch(torch_device="cuda:0")
Xs = [torch.rand(5, 2, dtype=torch.double)]
Ys = [torch.rand(5, 1, dtype=torch.double)]
model.fit(Xs, Ys)
search_bounds = [(0.0, 1.0), (-2.0, 2.0)]
'''
CELL = '''
candidates, scores = model.gen(n=1, bounds=search_bounds)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("candidate_set = torch.rand(candidate_size, bounds_.size(1))",
                  "candidate_set = torch.rand(candidate_size, bounds_.size(1), device=self.device, dtype=self.dtype)")
CLEAN = False
