"""PINA POD-NN on a GPU: `PODBlock` keeps its fitted basis in a plain attribute, so moving the model leaves it on the CPU.

Source: https://github.com/PINA-org/PINA/issues/649
"During training, basis of PODBlock does not move automatically on GPU." The reporter's POD-NN
(`PODNN` = FeedForward coefficients + `PODBlock(pod_rank, scale_coefficients=False)`) is fitted with
`model.fit_pod(snap)` on the CPU and trained with `Trainer(solver=SupervisedSolver(...))` on the GPU;
`forward` fails in `self.pod.expand(coefficients)`, where `torch.matmul(self.basis.T, coeff.T)` mixes the
CPU basis with the on-device coefficients. `PODBlock._fit_pod` stores `self._basis = u.T` as a plain
tensor attribute (not a buffer), which `Module.to()` never moves. Stand-ins: PODBlock as in PINA
(`basis` slices with `narrow`, same rows as `[: self.rank]`; the fit uses `torch.linalg.svd`), the
reporter's PODNN, and the solver's device move reduced to `model.to(device)`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

class FeedForward(torch.nn.Module):
    def __init__(self, input_dimensions, output_dimensions, layers, func=torch.nn.Tanh):
        super().__init__()
        sizes = [input_dimensions] + list(layers) + [output_dimensions]
        mods = []
        for i in range(len(sizes) - 2):
            mods += [torch.nn.Linear(sizes[i], sizes[i + 1]), func()]
        mods.append(torch.nn.Linear(sizes[-2], sizes[-1]))
        self.model = torch.nn.Sequential(*mods)

    def forward(self, x):
        return self.model(x)

class PODBlock(torch.nn.Module):
    """Stand-in for pina.model.block.PODBlock."""
    def __init__(self, rank, scale_coefficients=True):
        super().__init__()
        self.__scale_coefficients = scale_coefficients
        self._basis = None
        self._singular_values = None
        self._scaler = None
        self._rank = rank

    @property
    def rank(self):
        return self._rank

    @property
    def basis(self):
        if self._basis is None:
            return None
        return self._basis.narrow(0, 0, self.rank)

    def fit(self, X, randomized=False):
        self._fit_pod(X, randomized)

    def _fit_pod(self, X, randomized):
        u, s, v = torch.linalg.svd(X.T, full_matrices=False)
        self._basis = u.T
        self._singular_values = s

    def expand(self, coeff):
        if self._basis is None:
            raise RuntimeError("The POD layer needs to be trained before being used.")
        predicted = torch.matmul(self.basis.T, coeff.T).T
        if predicted.ndim == 1:
            predicted = predicted.unsqueeze(0)
        return predicted

class PODNN(torch.nn.Module):
    def __init__(self, pod_rank, layers, func=torch.nn.Softplus):
        super().__init__()
        self.pod = PODBlock(pod_rank, scale_coefficients=False)
        self.nn = FeedForward(input_dimensions=3, output_dimensions=pod_rank, layers=layers, func=func)

    def forward(self, p):
        coefficients = self.nn(p)
        return self.pod.expand(coefficients)

    def fit_pod(self, x):
        self.pod.fit(x)

device = torch.device("cuda:0")
snap = torch.rand((10, 100))
params = torch.rand((10, 3))
model = PODNN(pod_rank=3, layers=[20, 20])
model.fit_pod(snap)
model = model.to(device)            # what SupervisedSolver/Trainer do with the model on a GPU
params = params.to(device)
snap = snap.to(device)
'''
CELL = '''
out = model(params)
loss = torch.nn.functional.mse_loss(out, snap)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.pod"]
FIX = "namespace"
REFERENCE_FIX = '''
model.pod._basis = model.pod._basis.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
