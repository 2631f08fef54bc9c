"""Zen-NAS PlainNet keeps its blocks in a plain Python list; `model.cuda()` leaves them on the CPU.

Source: https://github.com/Adlik/zen_nas/issues/7
Running the CIFAR search script gave "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same" although the model had been moved with `.cuda(gpu)`.
The user traced it to `self.block_list` in `PlainNet`, a plain list that `Module.cuda()` does not
walk, and fixed it with `nn.ModuleList(self.block_list).to("cuda")`. The searched architecture is
stood in for by three small conv blocks;
meta stands for the GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class ConvKXBNRELU(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding=kernel_size // 2, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))

class PlainNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.block_list = [
            ConvKXBNRELU(3, 16, 3, 1),
            ConvKXBNRELU(16, 32, 3, 2),
            ConvKXBNRELU(32, 64, 3, 2),
        ]
        self.last_channels = 64
        self.fc_linear = nn.Linear(self.last_channels, num_classes)

    def forward(self, x):
        output = x
        for the_block in self.block_list:
            output = the_block(output)
        output = nn.functional.adaptive_avg_pool2d(output, output_size=1)
        output = torch.flatten(output, 1)
        return self.fc_linear(output)

gpu = torch.device("meta")
model = PlainNet(num_classes=10)
model = model.to(gpu)   # model.cuda(gpu)
input = torch.randn(8, 3, 32, 32).to(gpu)
'''
CELL = '''
output = model(input)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.block_list"]
FIX = "namespace"
REFERENCE_FIX = '''
model.block_list = [block.to(gpu) for block in model.block_list]
'''
REFERENCE_EDIT = None
CLEAN = False
