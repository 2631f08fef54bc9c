"""Look-alike: DeepSpeed ZeRO-3 with optimizer offload keeps the fp32 gradient partitions and the optimizer step on the CPU while the model runs on the GPU; since #5504 the global grad norm is returned on the CPU too, so unscaling the CPU partition is consistent.

Source: https://github.com/deepspeedai/DeepSpeed/blob/master/deepspeed/runtime/zero/stage3.py
`DeepSpeedZeroOptimizer_Stage3` with `offload_optimizer.device=cpu`: `fp32_partitioned_groups_flat` and
their `.grad` live on the CPU, `complete_grad_norm_calculation_for_cpu_offload` ends with
`return total_norm.cpu()` ("move total_norm to CPU, as expected device in such case is CPU", #5504),
`step()` stacks the group norms (`torch.norm(torch.stack(norm_groups))`) and `unscale_and_clip_grads`
multiplies the CPU gradient partition by the CPU scale; the parameters of the module stay on the GPU.
Stand-ins: the same single-process optimizer as the corpus's ZeRO-3 offload case, in the fixed form
(host round trips on simulated GPU tensors written without them; CPU Adam as an SGD step).
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

        return total_norm.cpu()

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
print(model_engine.optimizer.fp32_partitioned_groups_flat[0].device, next(model.parameters()).device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
