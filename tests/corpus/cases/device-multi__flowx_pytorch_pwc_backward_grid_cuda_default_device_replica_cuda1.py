"""pytorch-pwc `Backward`: the warping grid is made with `.cuda()`, i.e. on the default GPU, so the DataParallel replica on cuda:1 fails.

Source: https://github.com/sniklaus/pytorch-pwc/issues/24
"Data Parallel for PWC-Net": the user wrapped the network in DataParallel and it broke in the
`Backward` function around `torch.nn.functional.grid_sample`. `Backward_tensorGrid[...]` is built
from `torch.linspace(...)` and moved with `.cuda()`, which means the current device (cuda:0), while
the second replica's flow is on cuda:1. v-iashin's answer: keep the grids inside `Backward` and make
them for the device of the chunk being processed (`chunk_tensor.device`). Stand-in: `Backward` with
`.cuda()` written as `.to("cuda:0")` (what it resolves to), F.grid_sample replaced by a same-device
elementwise stand-in; the decoder reduced to one level; the replica on cuda:1 is a module copy.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
import torch.nn as nn

def grid_sample(input, grid):
    # stand-in for torch.nn.functional.grid_sample(input=..., grid=..., mode='bilinear', padding_mode='zeros')
    return input * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

def Backward(tensorInput, tensorFlow):
    Backward_tensorGrid = {}
    if str(tensorFlow.size()) not in Backward_tensorGrid:
        tensorHorizontal = torch.linspace(-1.0, 1.0, tensorFlow.size(3)).view(1, 1, 1, tensorFlow.size(3)).expand(tensorFlow.size(0), -1, tensorFlow.size(2), -1)
        tensorVertical = torch.linspace(-1.0, 1.0, tensorFlow.size(2)).view(1, 1, tensorFlow.size(2), 1).expand(tensorFlow.size(0), -1, -1, tensorFlow.size(3))
        Backward_tensorGrid[str(tensorFlow.size())] = torch.cat([tensorHorizontal, tensorVertical], 1).to("cuda:0")   # .cuda()
    tensorInput = torch.cat([tensorInput, tensorInput.new_ones([tensorInput.size(0), 1, tensorInput.size(2), tensorInput.size(3)])], 1)
    tensorFlow = torch.cat([tensorFlow[:, 0:1, :, :] / ((tensorInput.size(3) - 1.0) / 2.0),
                            tensorFlow[:, 1:2, :, :] / ((tensorInput.size(2) - 1.0) / 2.0)], 1)
    tensorOutput = grid_sample(tensorInput, (Backward_tensorGrid[str(tensorFlow.size())] + tensorFlow).permute(0, 2, 3, 1))
    return tensorOutput[:, :-1, :, :]

class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.moduleUpflow = nn.ConvTranspose2d(2, 2, 4, 2, 1)
        self.moduleMain = nn.Conv2d(16 + 16 + 2, 2, 3, padding=1)

    def forward(self, tensorFirst, tensorSecond, tensorFlow):
        tensorFlow = self.moduleUpflow(tensorFlow)
        tensorWarp = Backward(tensorInput=tensorSecond, tensorFlow=tensorFlow * 1.25)
        return self.moduleMain(torch.cat([tensorFirst, tensorWarp, tensorFlow], 1))

class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.moduleExtractor = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.moduleDecoder = Decoder()

    def forward(self, tensorFirst, tensorSecond):
        f1, f2 = self.moduleExtractor(tensorFirst), self.moduleExtractor(tensorSecond)
        tensorFlow = f1.new_zeros([f1.size(0), 2, f1.size(2) // 2, f1.size(3) // 2])
        return self.moduleDecoder(f1, f2, tensorFlow)

moduleNetwork = Network().eval()
replica_1 = copy.deepcopy(moduleNetwork).to("cuda:1")        # DataParallel replica on the second GPU
tensorFirst = torch.rand(2, 3, 64, 64).to("cuda:1")           # the chunk scattered to cuda:1
tensorSecond = torch.rand(2, 3, 64, 64).to("cuda:1")
'''
CELL = '''
tensorFlow = replica_1(tensorFirst, tensorSecond)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["Backward"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('torch.cat([tensorHorizontal, tensorVertical], 1).to("cuda:0")', 'torch.cat([tensorHorizontal, tensorVertical], 1).to(tensorFlow.device)')
CLEAN = False
