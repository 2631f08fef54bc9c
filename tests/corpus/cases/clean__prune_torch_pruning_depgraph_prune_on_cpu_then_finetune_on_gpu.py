"""Torch-Pruning's minimal DepGraph example: prune `conv1`'s group on the CPU with a CPU `example_inputs`, then move it to the GPU for fine-tuning.

Source: https://github.com/VainF/Torch-Pruning/blob/master/README.md
The README builds the graph on the CPU (`DG = tp.DependencyGraph().build_dependency(model,
example_inputs=torch.randn(1,3,224,224))`), takes `group = DG.get_pruning_group(model.conv1,
tp.prune_conv_out_channels, idxs=[2, 6, 9])`, calls `group.prune()` and counts MACs with the same CPU
`example_inputs`; the pruned model is then fine-tuned/evaluated wherever the user trains, here on the
GPU with its batches moved there. Look-alike: the CPU `example_inputs` stays in the namespace while the
pruned model and the batch are on cuda:0; it runs.
Stand-in: a conv1 -> bn1 -> conv2 -> fc network (eval mode, one batch on the GPU); DependencyGraph /
Group reduced to the coupled out-channel (conv1, bn1) and in-channel (conv2) pruning functions written
with `index_select`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def _keep(n, idxs):
    return torch.tensor([i for i in range(n) if i not in set(idxs)])

def prune_conv_out_channels(layer, idxs):
    keep = _keep(layer.out_channels, idxs)
    layer.out_channels = len(keep)
    layer.weight = nn.Parameter(layer.weight.data.index_select(0, keep))
    if layer.bias is not None:
        layer.bias = nn.Parameter(layer.bias.data.index_select(0, keep))
    return layer

def prune_conv_in_channels(layer, idxs):
    keep = _keep(layer.in_channels, idxs)
    layer.in_channels = len(keep)
    layer.weight = nn.Parameter(layer.weight.data.index_select(1, keep))
    return layer

def prune_batchnorm_out_channels(layer, idxs):
    keep = _keep(layer.num_features, idxs)
    layer.num_features = len(keep)
    layer.running_mean = layer.running_mean.data.index_select(0, keep)
    layer.running_var = layer.running_var.data.index_select(0, keep)
    layer.weight = nn.Parameter(layer.weight.data.index_select(0, keep))
    layer.bias = nn.Parameter(layer.bias.data.index_select(0, keep))
    return layer

class Group:
    def __init__(self, deps, idxs):
        self._deps, self._idxs = deps, idxs
    def prune(self):
        for fn, layer in self._deps:
            fn(layer, self._idxs)

class DependencyGraph:
    def build_dependency(self, model, example_inputs):
        self.model = model
        with torch.no_grad():
            model(example_inputs)
        return self
    def get_pruning_group(self, layer, pruning_fn, idxs):
        m = self.model
        return Group([(prune_conv_out_channels, m.conv1), (prune_batchnorm_out_channels, m.bn1),
                      (prune_conv_in_channels, m.conv2)], idxs)
    def check_pruning_group(self, group):
        return True

class tp:
    DependencyGraph = DependencyGraph
    prune_conv_out_channels = staticmethod(prune_conv_out_channels)

class SmallResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, num_classes)
    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.conv2(x))
        return self.fc(self.pool(x).flatten(1))

model = SmallResNet().eval()
example_inputs = torch.randn(1, 3, 32, 32)
device = torch.device("cuda:0")
images, labels = torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))    # a CPU loader batch
'''
CELL = '''
DG = tp.DependencyGraph().build_dependency(model, example_inputs=example_inputs)
group = DG.get_pruning_group(model.conv1, tp.prune_conv_out_channels, idxs=[2, 6, 9])
if DG.check_pruning_group(group):
    group.prune()
with torch.no_grad():
    pruned_out = model(example_inputs)
model = model.to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)   # fine-tuning set-up
with torch.no_grad():
    logits = model(images.to(device))
    loss = nn.functional.cross_entropy(logits, labels.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
