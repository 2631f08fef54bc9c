"""NNI AGP_Pruner on a CUDA model: the initial mask `torch.ones(weight.shape)` is created on the CPU.

Source: https://github.com/microsoft/nni/pull/1607
"fix built-in pruner bugs: initial mask may have different device with layer weights, to make them
consistent". In NNI 1.x `AGP_Pruner.calc_mask` starts from `self.mask_list.get(op_name,
torch.ones(weight.shape))` and multiplies `weight.abs() * mask`; the instrumented forward passes
`layer.module.weight.data`, which lives on the GPU once the model was moved, so the first training
batch fails. The fix builds the mask with `.type_as(weight)`. Stand-in: Pruner / AGP_Pruner reduced to
`compress()` instrumenting the layers' forward and `calc_mask`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class Pruner:
    def __init__(self, config_list):
        self.config_list = config_list

    def compress(self, model):
        for name, module in model.named_modules():
            if isinstance(module, (nn.Conv2d, nn.Linear)) and name in self.config_list[0]["op_names"]:
                self._instrument_layer(module, name, self.config_list[0])
        return model

    def _instrument_layer(self, module, op_name, config):
        _forward = module.forward

        def new_forward(*inputs):
            mask = self.calc_mask(module.weight.data, config, op_name=op_name)
            module.weight.data = module.weight.data.mul_(mask)
            return _forward(*inputs)

        module.forward = new_forward

class AGP_Pruner(Pruner):
    def __init__(self, config_list):
        super().__init__(config_list)
        self.mask_list = {}
        self.now_epoch = 0
        self.if_init_list = {}

    def compute_target_sparsity(self, config):
        end_epoch, start_epoch = config.get("end_epoch", 1), config.get("start_epoch", 0)
        final_sparsity, initial_sparsity = config.get("final_sparsity", 0), config.get("initial_sparsity", 0)
        span = max(end_epoch - start_epoch, 1)
        return final_sparsity + (initial_sparsity - final_sparsity) * (1.0 - (self.now_epoch - start_epoch) / span) ** 3

    def calc_mask(self, weight, config, op_name, **kwargs):
        start_epoch = config.get("start_epoch", 0)
        freq = config.get("frequency", 1)
        if self.now_epoch >= start_epoch and self.if_init_list.get(op_name, True) \\
                and (self.now_epoch - start_epoch) % freq == 0:
            mask = self.mask_list.get(op_name, torch.ones(weight.shape))
            target_sparsity = self.compute_target_sparsity(config)
            k = int(weight.numel() * target_sparsity)
            if k == 0 or target_sparsity >= 1 or target_sparsity <= 0:
                return mask
            w_abs = weight.abs() * mask
            threshold = torch.topk(w_abs.view(-1), k, largest=False).values.max()
            new_mask = torch.gt(w_abs, threshold).type_as(weight)
            self.mask_list.update({op_name: new_mask})
            self.if_init_list.update({op_name: False})
        else:
            new_mask = self.mask_list.get(op_name, torch.ones(weight.shape))
        return new_mask

class Mnist(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5, 1)
        self.conv2 = nn.Conv2d(20, 50, 5, 1)
        self.fc1 = nn.Linear(4 * 4 * 50, 500)
        self.fc2 = nn.Linear(500, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2, 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2, 2)
        x = F.relu(self.fc1(x.view(-1, 4 * 4 * 50)))
        return F.log_softmax(self.fc2(x), dim=1)

device = torch.device("cuda:0")
configure_list = [{"initial_sparsity": 0, "final_sparsity": 0.8, "start_epoch": 0, "end_epoch": 10,
                   "frequency": 1, "op_names": ["conv2", "fc1"]}]
model = Mnist().to(device)
pruner = AGP_Pruner(configure_list)
model = pruner.compress(model)
pruner.now_epoch = 1
data = torch.randn(8, 1, 28, 28).to(device)
'''
CELL = '''
output = model(data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pruner"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mask = self.mask_list.get(op_name, torch.ones(weight.shape))\n            target_sparsity",
                  "mask = self.mask_list.get(op_name, torch.ones(weight.shape).type_as(weight))\n            target_sparsity")
CLEAN = False
