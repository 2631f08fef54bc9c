"""Look-alike: OneTrainer keeps the EMA copy of the trained parameters on the CPU while the model trains on cuda:0.

Source: https://github.com/Nerogar/OneTrainer/blob/master/modules/module/EMAModule.py
With "EMA: CPU" OneTrainer builds `EMAModuleWrapper(parameters, decay, update_step_interval, device=cpu)`,
which clones every parameter to the CPU (`p.clone().detach().to(device)`). `step` compares devices and, when
they differ, copies the GPU parameter to the EMA device before the in-place update (for sampling,
`copy_ema_to` writes the EMA values back with `ema_parameter.to(parameter.device)`). A CPU EMA beside a GPU
model is by design.
Stand-ins: a small LoRA-like adapter module for the trained parameters; the optimizer update is a plain
in-place `sub_`; `copy_ema_to`/`copy_temp_to` are left out (the simulated GPU cannot `copy_` into `.data`);
the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections.abc import Iterable
import torch
from torch import nn

class EMAModuleWrapper:                              # modules/module/EMAModule.py
    def __init__(self, parameters: Iterable[torch.nn.Parameter], decay: float = 0.9999,
                 update_step_interval: int = 1, device: torch.device | None = None):
        parameters = list(parameters)
        self.ema_parameters = [p.clone().detach().to(device) for p in parameters]
        self.temp_stored_parameters = None
        self.decay = decay
        self.update_step_interval = update_step_interval
        self.device = device

    def get_current_decay(self, optimization_step) -> float:
        return min((1 + optimization_step) / (10 + optimization_step), self.decay)

    @torch.no_grad()
    def step(self, parameters: Iterable[torch.nn.Parameter], optimization_step):
        parameters = list(parameters)
        one_minus_decay = 1 - self.get_current_decay(optimization_step)
        if (optimization_step + 1) % self.update_step_interval == 0:
            for ema_parameter, parameter in zip(self.ema_parameters, parameters, strict=True):
                if parameter.requires_grad:
                    if ema_parameter.device == parameter.device:
                        ema_parameter.add_(one_minus_decay * (parameter - ema_parameter))
                    else:
                        parameter_copy = parameter.detach().to(ema_parameter.device)
                        parameter_copy.sub_(ema_parameter)
                        parameter_copy.mul_(one_minus_decay)
                        ema_parameter.add_(parameter_copy)
                        del parameter_copy


class LoRAAdapter(nn.Module):
    def __init__(self, dim=32, rank=4):
        super().__init__()
        self.lora_down = nn.Linear(dim, rank, bias=False)
        self.lora_up = nn.Linear(rank, dim, bias=False)
    def forward(self, x):
        return self.lora_up(self.lora_down(x))

train_device = torch.device("cuda:0")
adapter = LoRAAdapter().to(train_device)
trainable_parameters = list(adapter.parameters())     # NamedParameterGroupCollection.parameters() is a list
ema = EMAModuleWrapper(trainable_parameters, decay=0.999, update_step_interval=1, device=torch.device("cpu"))
x = torch.randn(2, 32, device=train_device)
'''
CELL = '''
for train_step in range(2):
    for p in trainable_parameters:               # stands in for optimizer.step()
        p.sub_(1e-3 * torch.ones_like(p))
    ema.step(trainable_parameters, train_step)

sample = adapter(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
