"""torchrec CPU-offloaded metrics: a checkpoint restore writes the metric states back as CUDA tensors, while the metric pipeline runs on the CPU.

Source: https://github.com/meta-pytorch/torchrec/pull/4342
`CPUOffloadedRecMetricModule` keeps metric state on the CPU so update/compute run off the training
critical path. torchmetrics' `add_state` stores state with `setattr` (not `register_buffer`), and
`_load_from_state_dict` writes the loaded tensors the same way: with a checkpoint whose metric state
is on cuda, the restored attributes are on cuda and "the next `update()` crashes with RuntimeError:
Expected all tensors to be on the same device". The fix re-pins the states to the CPU after loading.
Stand-in: a torchmetrics-like Metric with add_state/_load_from_state_dict and an NE computation.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Metric(nn.Module):                      # torchmetrics.Metric, reduced
    def __init__(self):
        super().__init__()
        self._defaults = {}

    def add_state(self, name, default):
        setattr(self, name, default.clone())
        self._defaults[name] = default

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        for name in self._defaults:
            destination[prefix + name] = getattr(self, name)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        for name in self._defaults:
            if prefix + name in state_dict:
                setattr(self, name, state_dict.pop(prefix + name))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)

class NEMetricComputation(Metric):
    def __init__(self, n_tasks=2):
        super().__init__()
        self.add_state("cross_entropy_sum", torch.zeros(n_tasks))
        self.add_state("weighted_num_samples", torch.zeros(n_tasks))
        self.add_state("pos_labels", torch.zeros(n_tasks))

    def update(self, predictions, labels, weights):
        p = predictions.clamp(1e-7, 1 - 1e-7)
        ce = -(labels * torch.log(p) + (1 - labels) * torch.log(1 - p))
        self.cross_entropy_sum += (ce * weights).sum(-1)
        self.weighted_num_samples += weights.sum(-1)
        self.pos_labels += (labels * weights).sum(-1)

class CPUOffloadedRecMetricModule(nn.Module):
    def __init__(self, n_tasks=2):
        super().__init__()
        self.ne = NEMetricComputation(n_tasks)       # kept on the CPU on purpose

    def update(self, model_out):
        cpu_out = {k: v.to("cpu", non_blocking=True) for k, v in model_out.items()}
        self.ne.update(cpu_out["prediction"], cpu_out["label"], cpu_out["weight"])

metric_module = CPUOffloadedRecMetricModule()
# the training checkpoint was written while the metric state lived on the accelerator
saved_state = {"ne.cross_entropy_sum": torch.full((2,), 31.5, device="cuda:0"),
               "ne.weighted_num_samples": torch.full((2,), 50.0, device="cuda:0"),
               "ne.pos_labels": torch.full((2,), 12.0, device="cuda:0")}
metric_module.load_state_dict(saved_state)
model_out = {"prediction": torch.rand(2, 64, device="cuda:0"),
             "label": torch.randint(0, 2, (2, 64), device="cuda:0").float(),
             "weight": torch.ones(2, 64, device="cuda:0")}
'''
CELL = '''
metric_module.update(model_out)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["metric_module.ne"]
FIX = "namespace"
REFERENCE_FIX = '''
for _name in metric_module.ne._defaults:
    setattr(metric_module.ne, _name, getattr(metric_module.ne, _name).to("cpu"))
'''
REFERENCE_EDIT = None
CLEAN = False
