"""MAPPO (marlbenchmark/on-policy): `ValueNorm(1).to(self.device)` moves the statistics but not the CPU `tpdv` it casts inputs with.

Source: https://github.com/marlbenchmark/on-policy/pull/107
"fixed bug in initializing ValueNorm: `self.value_normalizer = ValueNorm(1).to(self.device)` -->
`ValueNorm(1, device=self.device)` ... Running into the following error otherwise: RuntimeError:
Expected all tensors to be on the same device, but found at least two devices, cuda:0 and CPU".
ValueNorm stores `self.tpdv = dict(dtype=torch.float32, device=device)` (default cpu) and every
`update`/`normalize` does `input_vector.to(**self.tpdv)`; `Module.to` moves its running-mean
parameters to cuda:0 but leaves the dict, so the batch statistics are computed on the CPU and
added into cuda buffers. Stand-ins: ValueNorm as in the repo and the R_MAPPO trainer's value-loss
path.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class ValueNorm(nn.Module):
    def __init__(self, input_shape, norm_axes=1, beta=0.99999, epsilon=1e-5, device=torch.device("cpu")):
        super().__init__()
        self.input_shape, self.norm_axes, self.epsilon, self.beta = input_shape, norm_axes, epsilon, beta
        self.tpdv = dict(dtype=torch.float32, device=device)
        self.running_mean = nn.Parameter(torch.zeros(input_shape), requires_grad=False).to(**self.tpdv)
        self.running_mean_sq = nn.Parameter(torch.zeros(input_shape), requires_grad=False).to(**self.tpdv)
        self.debiasing_term = nn.Parameter(torch.tensor(0.0), requires_grad=False).to(**self.tpdv)

    def running_mean_var(self):
        debiased_mean = self.running_mean / self.debiasing_term.clamp(min=self.epsilon)
        debiased_mean_sq = self.running_mean_sq / self.debiasing_term.clamp(min=self.epsilon)
        return debiased_mean, (debiased_mean_sq - debiased_mean ** 2).clamp(min=1e-2)

    @torch.no_grad()
    def update(self, input_vector):
        if type(input_vector) == np.ndarray:
            input_vector = torch.from_numpy(input_vector)
        input_vector = input_vector.to(**self.tpdv)
        batch_mean = input_vector.mean(dim=tuple(range(self.norm_axes)))
        batch_sq_mean = (input_vector ** 2).mean(dim=tuple(range(self.norm_axes)))
        weight = self.beta
        self.running_mean.mul_(weight).add_(batch_mean * (1.0 - weight))
        self.running_mean_sq.mul_(weight).add_(batch_sq_mean * (1.0 - weight))
        self.debiasing_term.mul_(weight).add_(1.0 * (1.0 - weight))

    def normalize(self, input_vector):
        input_vector = input_vector.to(**self.tpdv)
        mean, var = self.running_mean_var()
        return (input_vector - mean[(None,) * self.norm_axes]) / torch.sqrt(var)[(None,) * self.norm_axes]

class R_MAPPO:
    def __init__(self, device=torch.device("cpu")):
        self.device = device
        self.tpdv = dict(dtype=torch.float32, device=device)
        self.clip_param = 0.2
        self.value_normalizer = ValueNorm(1).to(self.device)

    def cal_value_loss(self, values, value_preds_batch, return_batch):
        value_pred_clipped = value_preds_batch + (values - value_preds_batch).clamp(-self.clip_param, self.clip_param)
        self.value_normalizer.update(return_batch)
        error_clipped = self.value_normalizer.normalize(return_batch) - value_pred_clipped
        error_original = self.value_normalizer.normalize(return_batch) - values
        return torch.max(error_clipped ** 2, error_original ** 2).mean()

device = torch.device("cuda:0")
trainer = R_MAPPO(device=device)
critic = nn.Sequential(nn.Linear(18, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
share_obs_batch = torch.randn(400, 18).to(**trainer.tpdv)
value_preds_batch = torch.randn(400, 1).to(**trainer.tpdv)
return_batch = torch.randn(400, 1).to(**trainer.tpdv)
'''
CELL = '''
values = critic(share_obs_batch)
value_loss = trainer.cal_value_loss(values, value_preds_batch, return_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer.value_normalizer"]
FIX = "namespace"
REFERENCE_FIX = '''
trainer.value_normalizer.tpdv = dict(dtype=torch.float32, device=trainer.device)
'''
REFERENCE_EDIT = None
CLEAN = False
