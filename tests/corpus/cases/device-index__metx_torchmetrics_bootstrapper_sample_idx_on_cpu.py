"""torchmetrics `BootStrapper` on a cuda metric and cuda inputs: the bootstrap indices are drawn on the CPU and fed to `torch.index_select`.

Source: https://github.com/Lightning-AI/torchmetrics/issues/455
"BootStrapper yields a device error when the predicted and target tensors, along with the metric are
on GPU. Regardless of the device on which the tensors and the metric are hosted, this call to
`_bootstrap_sampler` returns indices hosted on the CPU. The device error is later thrown when calling
`torch.index_select`" (traceback through `mae.update(preds, targets)` ->
`apply_to_collection(args, Tensor, torch.index_select, dim=0, index=sample_idx)`). The fix (commit
90f34b5, shipped in PR #462 "Device and dtype properties") moves the indices:
`_bootstrap_sampler(size, sampling_strategy=self.sampling_strategy).to(self.device)`.
Stand-in: `BootStrapper`/`_bootstrap_sampler` of torchmetrics 0.5 and a `MeanAbsoluteError` on a
minimal `Metric` that already has the `device` property PR #462 added. The report's snippet is not
shown in full; the case uses `sampling_strategy="multinomial"` because the default Poisson branch
(`repeat_interleave` by sampled counts) has a value-dependent size the simulator cannot run; both
branches return CPU indices. The copies of the base metric are new instances of its class instead of
`deepcopy(base_metric)` (the simulator cannot deep-copy its tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn, Tensor
from torch.nn import ModuleList

class Metric(nn.Module):                              # stand-in for torchmetrics.Metric
    def __init__(self):
        super().__init__()
        self._device = torch.device("cpu")

    def add_state(self, name, default, dist_reduce_fx=None):
        self.register_buffer(name, default, persistent=False)

    @property
    def device(self):
        return self._device

    def _apply(self, fn, *args, **kwargs):
        this = super()._apply(fn, *args, **kwargs)
        this._device = fn(torch.zeros(1, device=self._device)).device
        return this

def apply_to_collection(data, dtype, function, *args, **kwargs):
    if isinstance(data, dtype):
        return function(data, *args, **kwargs)
    if isinstance(data, dict):
        return {k: apply_to_collection(v, dtype, function, *args, **kwargs) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)([apply_to_collection(d, dtype, function, *args, **kwargs) for d in data])
    return data

class MeanAbsoluteError(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("sum_abs_error", default=torch.tensor(0.0), dist_reduce_fx="sum")
        self.add_state("total", default=torch.tensor(0), dist_reduce_fx="sum")

    def update(self, preds, target):
        sum_abs_error = torch.sum(torch.abs(preds - target))
        self.sum_abs_error += sum_abs_error
        self.total += target.numel()

    def compute(self):
        return self.sum_abs_error / self.total

def _bootstrap_sampler(size, sampling_strategy="poisson"):
    if sampling_strategy == "poisson":
        p = torch.distributions.Poisson(1)
        n = p.sample((size,))
        return torch.arange(size).repeat_interleave(n.long(), dim=0)
    if sampling_strategy == "multinomial":
        idx = torch.multinomial(torch.ones(size), num_samples=size, replacement=True)
        return idx
    raise ValueError("Unknown sampling strategy")

class BootStrapper(Metric):
    def __init__(self, base_metric, num_bootstraps=10, mean=True, std=True, quantile=None, raw=False,
                 sampling_strategy="poisson"):
        super().__init__()
        self.metrics = ModuleList([type(base_metric)() for _ in range(num_bootstraps)])   # deepcopy(base_metric)
        self.num_bootstraps = num_bootstraps
        self.mean, self.std, self.quantile, self.raw = mean, std, quantile, raw
        self.sampling_strategy = sampling_strategy

    def update(self, *args, **kwargs):
        for idx in range(self.num_bootstraps):
            args_sizes = apply_to_collection(args, Tensor, len)
            kwargs_sizes = list(apply_to_collection(kwargs, Tensor, len))
            if len(args_sizes) > 0:
                size = args_sizes[0]
            elif len(kwargs_sizes) > 0:
                size = kwargs_sizes[0]
            else:
                raise ValueError("None of the input contained tensors, so could not determine the sampling size")
            sample_idx = _bootstrap_sampler(size, sampling_strategy=self.sampling_strategy)
            new_args = apply_to_collection(args, Tensor, torch.index_select, dim=0, index=sample_idx)
            new_kwargs = apply_to_collection(kwargs, Tensor, torch.index_select, dim=0, index=sample_idx)
            self.metrics[idx].update(*new_args, **new_kwargs)

    def compute(self):
        computed_vals = torch.stack([m.compute() for m in self.metrics], dim=0)
        output_dict = {}
        if self.mean:
            output_dict["mean"] = computed_vals.mean(dim=0)
        if self.std:
            output_dict["std"] = computed_vals.std(dim=0)
        if self.raw:
            output_dict["raw"] = computed_vals
        return output_dict

device = torch.device("cuda:0")
mae = BootStrapper(MeanAbsoluteError(), num_bootstraps=20, sampling_strategy="multinomial").to(device)
preds = torch.randn(64, device=device)
targets = torch.randn(64, device=device)
'''
CELL = '''
mae.update(preds, targets)
output = mae.compute()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mae"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("sample_idx = _bootstrap_sampler(size, sampling_strategy=self.sampling_strategy)",
                  "sample_idx = _bootstrap_sampler(size, sampling_strategy=self.sampling_strategy).to(self.device)")
CLEAN = False
