"""DeepSpeed ZeRO-3 with optimizer offload (0.14.1/0.14.2): the global grad norm is computed on the GPU, and `unscale_and_clip_grads` multiplies the CPU fp32 gradient partition by a scale derived from it.

Source: https://github.com/deepspeedai/DeepSpeed/issues/5538
With `zero_optimization.stage=3` and `offload_optimizer.device=cpu`, every `model_engine.step()` after
0.14.0 failed in `stage3.py` `unscale_and_clip_grads` at
`self.fp32_partitioned_groups_flat[sub_group_id].grad.mul_(1. / combined_scale)` with "Expected all
tensors to be on the same device, but found at least two devices, cuda:2 and cpu!". The maintainers
tied it to the new `scaled_global_grad_norm = torch.norm(torch.stack(norm_groups))` (#5256, see the
revert #5461): `complete_grad_norm_calculation_for_cpu_offload` returns the norm on the accelerator while
the offloaded fp32 partitions live on the CPU. The fix (#5504) returns `total_norm.cpu()` from
`complete_grad_norm_calculation_for_cpu_offload`, "as expected device in such case is CPU".
Stand-ins: a single-process DeepSpeedZeroOptimizer_Stage3 with one sub group, in the library's names;
the state `model_engine.backward(loss)` leaves (per-parameter grad norms on the GPU, fp32 gradient
partition on the CPU) is built directly; `FloatTensor([float(total_norm)])` / `total_norm_cuda[0]`
(host round trips a simulated GPU tensor cannot make) keep the value on the GPU without them, and
`if clip > 1:` is written `torch.clamp(clip, min=1.0)`, as DeepSpeed writes it since #5504; CPU Adam's
update is a plain SGD step.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class DeepSpeedZeroOptimizer_Stage3:
    def __init__(self, module, lr, clip_grad, offload_optimizer_device, local_rank):
        self.device = torch.device("cuda", local_rank)
        self.offload_optimizer = offload_optimizer_device == "cpu"
        self.loss_scale = 1.0                  # bf16: no dynamic loss scaling
        self.clip_grad = clip_grad
        self.lr = lr
        self.model_parallel_rank = 0
        self.fp16_groups = [[p for p in module.parameters()]]
        self.param_ids = {id(p): i for i, p in enumerate(self.fp16_groups[0])}
        fp32_device = "cpu" if self.offload_optimizer else self.device
        flat = torch.cat([p.detach().float().reshape(-1) for p in self.fp16_groups[0]])
        self.fp32_partitioned_groups_flat = [flat.to(fp32_device)]
        self.norm_for_param_grads = {}

    def get_param_id(self, param):
        return self.param_ids[id(param)]

    def complete_grad_norm_calculation_for_cpu_offload(self, params):
        total_norm = 0.0
        norm_type = 2.0
        for p in params:
            if self.model_parallel_rank == 0:
                param_id = self.get_param_id(p)
                if param_id in self.norm_for_param_grads.keys():
                    param_norm = self.norm_for_param_grads[param_id]
                    total_norm += param_norm**2

        # Sum across all model parallel GPUs.  (get_accelerator().FloatTensor([float(total_norm)]))
        total_norm_cuda = total_norm.reshape(1).float()
        # dist.all_reduce(total_norm_cuda, op=dist.ReduceOp.SUM, group=self.dp_process_group)
        total_norm = total_norm_cuda.squeeze(0)**(1. / norm_type)

        norm_is_inf = total_norm.isinf()
        norm_is_nan = total_norm.isnan()
        inf_or_nan = norm_is_nan.logical_or(norm_is_inf)

        err = torch.tensor(-1.0, device=self.device, dtype=torch.float)
        total_norm = inf_or_nan * err + inf_or_nan.logical_not() * total_norm

        return total_norm

    def _get_norm_groups(self):
        norm_groups = []
        for i, group in enumerate(self.fp16_groups):
            if self.offload_optimizer:
                norm_groups.append(self.complete_grad_norm_calculation_for_cpu_offload(self.fp16_groups[i]))
        return norm_groups

    def unscale_and_clip_grads(self, sub_group_id, total_norm):
        # compute combined scale factor for this group
        combined_scale = self.loss_scale
        if self.clip_grad > 0.:
            # norm is in fact norm*scale
            clip = ((total_norm / self.loss_scale) + 1e-6) / self.clip_grad
            clip = torch.clamp(clip, min=1.0)
            combined_scale = clip * self.loss_scale

        self.fp32_partitioned_groups_flat[sub_group_id].grad.mul_(1. / combined_scale)

    def _optimizer_step(self, sub_group_id):
        fp32_param = self.fp32_partitioned_groups_flat[sub_group_id]
        fp32_param.add_(fp32_param.grad, alpha=-self.lr)      # DeepSpeedCPUAdam on the CPU

    def step(self, closure=None):
        norm_groups = self._get_norm_groups()
        scaled_global_grad_norm = torch.norm(torch.stack(norm_groups))
        self._global_grad_norm = scaled_global_grad_norm / self.loss_scale
        for sub_group_id, group in enumerate(self.fp16_groups):
            self.unscale_and_clip_grads(sub_group_id, scaled_global_grad_norm)
            self._optimizer_step(sub_group_id)

class DeepSpeedEngine(nn.Module):
    def __init__(self, model, optimizer):
        super().__init__()
        self.module = model
        self.optimizer = optimizer
    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
    def step(self):
        self.optimizer.step()

def initialize(model, config, local_rank):
    model.to(torch.device("cuda", local_rank))
    zero = config["zero_optimization"]
    optimizer = DeepSpeedZeroOptimizer_Stage3(
        model, lr=config["optimizer"]["params"]["lr"], clip_grad=config["gradient_clipping"],
        offload_optimizer_device=zero["offload_optimizer"]["device"], local_rank=local_rank)
    return DeepSpeedEngine(model, optimizer), optimizer, None, None

ds_config = {
    "gradient_clipping": 1.0,
    "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}},
    "bf16": {"enabled": True},
    "zero_optimization": {"stage": 3,
                          "offload_param": {"device": "cpu", "pin_memory": True},
                          "offload_optimizer": {"device": "cpu", "pin_memory": True}},
}
local_rank = 0
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))
model_engine, _, _, _ = initialize(model=model, config=ds_config, local_rank=local_rank)

# state left by model_engine.backward(loss): per-parameter grad norms computed on the GPU grad
# buffers, fp32 gradient partition offloaded to the CPU
opt = model_engine.optimizer
for p in opt.fp16_groups[0]:
    opt.norm_for_param_grads[opt.get_param_id(p)] = torch.randn(p.numel(), device=p.device).double().norm(2)
opt.fp32_partitioned_groups_flat[0].grad = torch.randn(opt.fp32_partitioned_groups_flat[0].numel())
del opt, p
'''
CELL = '''
with torch.no_grad():
    model_engine.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model_engine.optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        total_norm = inf_or_nan * err + inf_or_nan.logical_not() * total_norm

        return total_norm
""", """        total_norm = inf_or_nan * err + inf_or_nan.logical_not() * total_norm

        return total_norm.cpu()
""")
CLEAN = False
