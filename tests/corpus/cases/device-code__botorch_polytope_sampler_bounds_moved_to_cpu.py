"""BoTorch optimize_acqf with linear inequality constraints on the GPU: the initializer samples with CPU bounds.

Source: https://github.com/meta-pytorch/botorch/issues/872
"optimize_acqf fails when running a problem with inequality constraints on the GPU":
`gen_batch_initial_conditions` makes `bounds_cpu = bounds.cpu()` and passed it to
`get_polytope_samples`, whose `HitAndRunPolytopeSampler` turns the bounds into extra inequality
rows `A2` and does `A = torch.cat([A, A2], dim=0)` with the user's (cuda) constraint rows. The
reporter's workaround moved the constraints to the CPU; BoTorch later passed the device `bounds`.
Stand-in: those three functions reduced (all bounds finite, no hit-and-run steps; item
assignment written with select/index_copy_ for the fake-cuda simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

tkwargs = {"dtype": torch.double, "device": torch.device("cuda:0")}

def _convert_bounds_to_inequality_constraints(bounds):
    d = bounds.shape[-1]
    eye = torch.eye(d, dtype=bounds.dtype, device=bounds.device)
    A2 = torch.cat([-eye, eye], dim=0)
    b2 = torch.cat([-bounds.select(0, 0), bounds.select(0, 1)], dim=0).unsqueeze(-1)
    return A2, b2

def sparse_to_dense_constraints(d, constraints):
    _t = constraints[0][1]
    A = torch.zeros(len(constraints), d, dtype=_t.dtype, device=_t.device)
    b = torch.zeros(len(constraints), 1, dtype=_t.dtype, device=_t.device)
    for i, (indices, coefficients, rhs) in enumerate(constraints):
        A.select(0, i).index_copy_(0, indices.long(), coefficients)   # A[i, indices] = coefficients
        b.select(0, i).fill_(rhs)
    return A, b

class HitAndRunPolytopeSampler:
    def __init__(self, inequality_constraints=None, bounds=None, n_burnin=0):
        A, b = inequality_constraints
        if bounds is not None:
            A2, b2 = _convert_bounds_to_inequality_constraints(bounds=bounds)
            A = torch.cat([A, A2], dim=0)
            b = torch.cat([b, b2], dim=0)
        self.A, self.b = A, b

    def draw(self, n):
        return torch.rand(n, self.A.shape[-1], dtype=self.A.dtype, device=self.A.device)

def get_polytope_samples(n, bounds, inequality_constraints=None, n_burnin=10_000):
    A, b = sparse_to_dense_constraints(d=bounds.shape[-1], constraints=inequality_constraints)
    # BoTorch constraints are A x >= b; the sampler wants A x <= b
    sampler = HitAndRunPolytopeSampler(inequality_constraints=(-A, -b), bounds=bounds,
                                       n_burnin=n_burnin)
    return sampler.draw(n)

def gen_batch_initial_conditions(bounds, q, num_restarts, raw_samples,
                                 inequality_constraints=None):
    bounds_cpu = bounds.cpu()
    X_rnd = get_polytope_samples(
        n=raw_samples * q,
        bounds=bounds_cpu,
        inequality_constraints=inequality_constraints,
    ).view(raw_samples, q, -1)
    return X_rnd.narrow(0, 0, num_restarts).to(bounds.device)

def optimize_acqf(acq_function, bounds, q, num_restarts, raw_samples, inequality_constraints=None):
    batch_initial_conditions = gen_batch_initial_conditions(
        bounds, q, num_restarts, raw_samples, inequality_constraints=inequality_constraints)
    return batch_initial_conditions, acq_function(batch_initial_conditions)

d = 3
bounds = torch.stack([torch.zeros(d, **tkwargs), torch.ones(d, **tkwargs)])
# x0 + x1 + x2 >= 1  (indices, coefficients, rhs)
inequality_constraints = [(torch.tensor([0, 1, 2], device=tkwargs["device"]),
                           torch.ones(3, **tkwargs), 1.0)]
acq_function = lambda X: X.sum(dim=(-1, -2))   # stand-in for qExpectedImprovement
'''
CELL = '''
candidates, acq_value = optimize_acqf(acq_function, bounds=bounds, q=1, num_restarts=4,
                                      raw_samples=16, inequality_constraints=inequality_constraints)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["A2"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        bounds=bounds_cpu,\n", "        bounds=bounds,\n")
CLEAN = False
