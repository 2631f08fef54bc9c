"""NNI ModelSpeedup on a CUDA model: the channel mask of an unpruned layer in a dependency set is built on the CPU.

Source: https://github.com/microsoft/nni/issues/3090
`m_speedup.speedup_model()` after SimulatedAnnealingPruner failed in
`fix_mask_conflict -> ChannelMaskConflict.fix_mask` at
`merged_channel_mask = ((merged_channel_mask + channel_masks[i]) != 0).int()` with "expected device
cpu but got device cuda": the pruned layers' channel masks come from the masks on the model's GPU,
while a layer of the same channel-dependency set that was not pruned gets
`torch.ones(num_channels_list[0]).int()`, created on the CPU (see also the CUDA speedup fix,
microsoft/nni#2947). Stand-in: ModelSpeedup / ChannelMaskConflict reduced to the mask merge over a
hand-written dependency set (two convs feeding one residual add).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def get_module_by_name(model, name):
    return name, dict(model.named_modules())[name]

class ChannelMaskConflict:
    def __init__(self, masks, model, dependency_sets):
        self.masks = masks
        self.bound_model = model
        self.dependency_sets = dependency_sets

    def fix_mask(self):
        for dset in self.dependency_sets:
            channel_masks = []
            for name in dset:
                if name in self.masks:
                    _, m = get_module_by_name(self.bound_model, name)
                    mask = self.masks[name]["weight"]
                    channel_masks.append((mask.abs().sum((1, 2, 3)) != 0).int())
                else:
                    channel_masks.append(None)
            num_channels_list = [len(x) for x in channel_masks if x is not None]
            channel_masks = [torch.ones(num_channels_list[0]).int() if x is None else x for x in channel_masks]
            merged_channel_mask = channel_masks[0].clone()
            for i in range(1, len(channel_masks)):
                merged_channel_mask = ((merged_channel_mask + channel_masks[i]) != 0).int()
            for name in dset:
                if name in self.masks:
                    shape = self.masks[name]["weight"].shape
                    self.masks[name]["weight"] = merged_channel_mask.view(-1, 1, 1, 1).expand(shape).float()
        return self.masks

def fix_mask_conflict(masks, model, dummy_input, dependency_sets):
    return ChannelMaskConflict(masks, model, dependency_sets).fix_mask()

class ModelSpeedup:
    def __init__(self, model, dummy_input, masks_file):
        self.bound_model = model
        self.dummy_input = dummy_input
        self.masks = masks_file                     # torch.load(masks_file) of masks saved on the GPU
        self.dependency_sets = [["conv1", "shortcut"]]   # channel dependency from the traced graph

    def speedup_model(self):
        self.bound_model.eval()
        self.masks = fix_mask_conflict(self.masks, self.bound_model, self.dummy_input, self.dependency_sets)
        return self.masks

class ResBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.shortcut = nn.Conv2d(3, 16, 1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return self.fc((torch.relu(self.conv1(x)) + self.shortcut(x)).mean(dim=(2, 3)))

device = torch.device("cuda:0")
model = ResBlock().to(device)
# what SimulatedAnnealingPruner(...).compress() / export_model(mask_path=...) left for the pruned conv
weight_mask = (torch.arange(16, device=device) % 2 == 0).float().view(16, 1, 1, 1).expand(16, 3, 3, 3)
masks = {"conv1": {"weight": weight_mask, "bias": weight_mask[:, 0, 0, 0]}}
dummy_input = torch.randn(1, 3, 32, 32).to(device)
m_speedup = ModelSpeedup(model, dummy_input, masks)
'''
CELL = '''
m_speedup.speedup_model()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected device")
CULPRITS = ["m_speedup"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.ones(num_channels_list[0]).int() if x is None else x",
                  "torch.ones(num_channels_list[0]).int().to(self.masks[dset[0]]['weight'].device) if x is None else x")
CLEAN = False
