"""Look-alike: Diffusion Policy training workspace: the EMA copy is `copy.deepcopy(self.model)` taken on the CPU before the device transfer, and both models are moved before `ema.step(self.model)`.

Source: https://github.com/real-stanford/diffusion_policy (diffusion_policy/workspace/train_diffusion_unet_lowdim_workspace.py
__init__ and run; diffusion_policy/model/diffusion/ema_model.py EMAModel.step;
diffusion_policy/common/pytorch_util.py dict_apply and optimizer_to)
`TrainDiffusionUnetLowdimWorkspace.__init__` builds the policy and `self.ema_model =
copy.deepcopy(self.model)` on the CPU, and `EMAModel(model=self.ema_model)` keeps a reference to
that copy. `run()` then does `self.model.to(device)`, `self.ema_model.to(device)` and
`optimizer_to(self.optimizer, device)` before the loop; each step moves the batch with
`dict_apply(batch, lambda x: x.to(device, non_blocking=True))` and calls `ema.step(self.model)`,
which mixes the parameters in place (`ema_param.add_(param.data.to(dtype=ema_param.dtype), ...)`,
`copy_` for the normaliser's non-trainable parameters). Stand-ins: the ConditionalUnet1D reduced to
a Conv1d/GroupNorm/Mish block over the action trajectory, the normaliser to a ParameterDict with
`requires_grad=False`, `compute_loss` to a plain regression of the normalised action; backward
and optimizer steps are left out. The GPU is simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.batchnorm import _BatchNorm


def dict_apply(x, func):
    result = dict()
    for key, value in x.items():
        result[key] = dict_apply(value, func) if isinstance(value, dict) else func(value)
    return result


def optimizer_to(optimizer, device):
    for state in optimizer.state.values():
        for k, v in state.items():
            if isinstance(v, torch.Tensor):
                state[k] = v.to(device=device)
    return optimizer


class EMAModel:
    def __init__(self, model, update_after_step=0, inv_gamma=1.0, power=2 / 3, min_value=0.0, max_value=0.9999):
        self.averaged_model = model
        self.averaged_model.eval()
        self.averaged_model.requires_grad_(False)
        self.update_after_step, self.inv_gamma, self.power = update_after_step, inv_gamma, power
        self.min_value, self.max_value = min_value, max_value
        self.decay = 0.0
        self.optimization_step = 0

    def get_decay(self, optimization_step):
        step = max(0, optimization_step - self.update_after_step - 1)
        value = 1 - (1 + step / self.inv_gamma) ** -self.power
        if step <= 0:
            return 0.0
        return max(self.min_value, min(value, self.max_value))

    @torch.no_grad()
    def step(self, new_model):
        self.decay = self.get_decay(self.optimization_step)
        for module, ema_module in zip(new_model.modules(), self.averaged_model.modules()):
            for param, ema_param in zip(module.parameters(recurse=False), ema_module.parameters(recurse=False)):
                if isinstance(param, dict):
                    raise RuntimeError("Dict parameter not supported")
                if isinstance(module, _BatchNorm):
                    ema_param.copy_(param.to(dtype=ema_param.dtype).data)
                elif not param.requires_grad:
                    ema_param.copy_(param.to(dtype=ema_param.dtype).data)
                else:
                    ema_param.mul_(self.decay)
                    ema_param.add_(param.data.to(dtype=ema_param.dtype), alpha=1 - self.decay)
        self.optimization_step += 1


class LinearNormalizer(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.params_dict = nn.ParameterDict()
        for key, d in dims.items():
            self.params_dict[key + "_scale"] = nn.Parameter(torch.full((d,), 0.5), requires_grad=False)
            self.params_dict[key + "_offset"] = nn.Parameter(torch.zeros(d), requires_grad=False)

    def normalize(self, key, x):
        scale, offset = self.params_dict[key + "_scale"], self.params_dict[key + "_offset"]
        x = x.to(device=scale.device, dtype=scale.dtype)
        return x * scale + offset


class DiffusionUnetLowdimPolicy(nn.Module):
    def __init__(self, obs_dim, action_dim, horizon, hidden=64):
        super().__init__()
        self.normalizer = LinearNormalizer({"obs": obs_dim, "action": action_dim})
        self.obs_proj = nn.Linear(obs_dim, hidden)
        self.model = nn.Sequential(nn.Conv1d(action_dim + hidden, hidden, 5, padding=2),
                                   nn.GroupNorm(8, hidden), nn.Mish(),
                                   nn.Conv1d(hidden, action_dim, 1))
        self.horizon = horizon

    def compute_loss(self, batch):
        nobs = self.normalizer.normalize("obs", batch["obs"])
        naction = self.normalizer.normalize("action", batch["action"])
        cond = self.obs_proj(nobs[:, 0]).unsqueeze(-1).expand(-1, -1, self.horizon)
        x = torch.cat([naction.transpose(1, 2), cond], dim=1)
        pred = self.model(x).transpose(1, 2)
        return F.mse_loss(pred, naction)


class TrainDiffusionUnetLowdimWorkspace:
    def __init__(self):
        self.model = DiffusionUnetLowdimPolicy(obs_dim=20, action_dim=2, horizon=16)
        self.ema_model = copy.deepcopy(self.model)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-4, weight_decay=1e-6)
        self.global_step = 0


workspace = TrainDiffusionUnetLowdimWorkspace()
ema = EMAModel(model=workspace.ema_model, power=0.75)

# device transfer (TrainDiffusionUnetLowdimWorkspace.run)
device = torch.device("meta")                     # cfg.training.device, the GPU simulated with meta
workspace.model.to(device)
if workspace.ema_model is not None:
    workspace.ema_model.to(device)
optimizer_to(workspace.optimizer, device)

batch = {"obs": torch.randn(64, 16, 20), "action": torch.randn(64, 16, 2)}   # from the train dataloader
'''
CELL = '''
batch = dict_apply(batch, lambda x: x.to(device, non_blocking=True))
raw_loss = workspace.model.compute_loss(batch)
# loss.backward(); optimizer.step(); optimizer.zero_grad(); lr_scheduler.step()
ema.step(workspace.model)
workspace.global_step += 1
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
