"""NNI ActivationAPoZRankFilterPruner: a forward hook on a GPU model stores each conv activation on the CPU by design.

Source: https://github.com/microsoft/nni/blob/v1.5/src/sdk/pynni/nni/compression/torch/activation_rank_filter_pruners.py
NNI v1.5's activation-rank pruners register a forward hook on every wrapped Conv2d that appends
`self.activation(output.detach().cpu())` to `collected_activation[wrapper_idx]`; after the statistics
batches, `_calc_apoz` concatenates those CPU activations and ranks the filters by their average
percentage of zeros. Look-alike: activations of a model on the GPU accumulated in CPU lists, and
statistics computed on the CPU, with nothing mixed.
Stand-ins: the pruner reduced to its activation collector (hooks registered directly on the
configured Conv2d layers instead of NNI's module wrappers) and `_calc_apoz`; a small VGG-style
CNN on the GPU; random CIFAR-shaped statistics batches.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ActivationAPoZRankFilterPruner:
    def __init__(self, model, config_list, optimizer=None, activation='relu', statistics_batch_num=1):
        self.bound_model = model
        self.config_list = config_list
        self.statistics_batch_num = statistics_batch_num
        self.activation = torch.nn.functional.relu if activation == 'relu' else torch.nn.functional.relu6
        self.modules_to_compress = [m for n, m in model.named_modules()
                                    if type(m).__name__ in config_list[0]['op_types']]
        self.hook_id = self._add_activation_collector()

    def _add_activation_collector(self):
        def collector(collected_activation):
            def hook(module_, input_, output):
                collected_activation.append(self.activation(output.detach().cpu()))
            return hook
        self.collected_activation = {}
        self._fwd_hook_handles = []
        for wrapper_idx, module in enumerate(self.modules_to_compress):
            self.collected_activation[wrapper_idx] = []
            handle = module.register_forward_hook(collector(self.collected_activation[wrapper_idx]))
            self._fwd_hook_handles.append(handle)
        return 1

    def _calc_apoz(self, activations):
        activations = torch.cat(activations, 0)
        _eq_zero = torch.eq(activations, torch.zeros_like(activations))
        _apoz = torch.sum(_eq_zero, dim=(0, 2, 3)) / torch.numel(_eq_zero[:, 0, :, :])
        return _apoz

class VGG(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Linear(32 * 8 * 8, num_classes)
    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))

device = torch.device("cuda:0")
model = VGG().to(device)
configure_list = [{'sparsity': 0.5, 'op_types': ['Conv2d']}]
pruner = ActivationAPoZRankFilterPruner(model, configure_list, activation='relu', statistics_batch_num=2)
stat_batches = [torch.randn(16, 3, 32, 32).to(device) for _ in range(2)]
'''
CELL = '''
model.eval()
with torch.no_grad():
    for data in stat_batches:
        model(data)
apoz = pruner._calc_apoz(pruner.collected_activation[0])
num_prune = int(16 * configure_list[0]['sparsity'])
prune_indices = torch.argsort(apoz, descending=True)[:num_prune]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
