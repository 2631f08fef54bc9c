"""PIXOR evaluation: `load_state_dict(torch.load(..., map_location=device))` does not move the model.

Source: https://github.com/matssteinweg/PIXOR/issues/6
Running `evaluate_model.py` fails in `PIXOR.forward -> basis_block -> conv1` with "Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same". The script builds
`data_loader = load_dataset(..., device=device)` (the BEV voxel grids arrive on the GPU), creates
`pixor = PIXOR()` and calls `pixor.load_state_dict(torch.load('Models/PIXOR_Epoch_15.pt',
map_location=device))`; `map_location` only places the loaded checkpoint tensors, `load_state_dict`
copies them into the model's existing CPU parameters, so the network stays on the CPU. (The user's
`.to(device)` went on the return value of `evaluate_model`, not on the model.) Fix: `pixor.to(device)`.
Stand-ins: PIXOR reduced to its BasisBlock, one residual unit and the detection header (36 height
channels, small BEV grid); the checkpoint is a state_dict produced in memory; the data loader is a
list of (batch_data, batch_labels, batch_calib) already on the device; NMS post-processing omitted.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class BasisBlock(nn.Module):
    def __init__(self, n_input_channels):
        super(BasisBlock, self).__init__()
        self.conv1 = nn.Conv2d(n_input_channels, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)
        self.bn1 = nn.BatchNorm2d(32, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
        self.relu1 = nn.ReLU(inplace=True)

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn1(x)
        return self.relu1(x)

class ResidualUnit(nn.Module):
    def __init__(self, n_input, n_output):
        super(ResidualUnit, self).__init__()
        self.conv1 = nn.Conv2d(n_input, n_output, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), bias=False)
        self.bn1 = nn.BatchNorm2d(n_output)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = nn.Sequential(nn.Conv2d(n_input, n_output, kernel_size=(1, 1), stride=(2, 2), bias=False),
                                        nn.BatchNorm2d(n_output))

    def forward(self, x):
        identity = self.downsample(x)
        x = self.bn1(self.conv1(x))
        return self.relu(x + identity)

class PIXOR(nn.Module):
    def __init__(self):
        super(PIXOR, self).__init__()
        self.basis_block = BasisBlock(n_input_channels=36)
        self.res_block_1 = ResidualUnit(32, 96)
        self.classification = nn.Conv2d(96, 1, kernel_size=(3, 3), padding=(1, 1))
        self.regression = nn.Conv2d(96, 6, kernel_size=(3, 3), padding=(1, 1))

    def forward(self, x):
        x_b = self.basis_block(x)
        x_1 = self.res_block_1(x_b)
        x_class = torch.sigmoid(self.classification(x_1))
        x_reg = self.regression(x_1)
        return torch.cat((x_reg, x_class), dim=1)

def evaluate_model(model, data_loader):
    model.eval()
    outputs = []
    for batch_id, (batch_data, batch_labels, batch_calib) in enumerate(data_loader):
        with torch.set_grad_enabled(False):
            batch_predictions = model(batch_data)
            batch_predictions = batch_predictions.permute([0, 2, 3, 1])
            outputs.append(batch_predictions)
    return outputs

device = torch.device('cuda:0')
batch_size = 1
# load_dataset(root=root_dir, batch_size=batch_size, device=device, test_set=True)
data_loader = [(torch.rand(batch_size, 36, 80, 70, device=device), [[]], [None])]

checkpoint = PIXOR().state_dict()          # stands for torch.load('Models/PIXOR_Epoch_15.pt', ...)
pixor = PIXOR()
pixor.load_state_dict({k: v.to(device) for k, v in checkpoint.items()})   # map_location=device
'''
CELL = '''
eval_out = evaluate_model(pixor, data_loader)
'''
EXPECT_ERROR = ("should be the same", "Expected all tensors to be on the same device")
CULPRITS = ["pixor"]
FIX = "namespace"
REFERENCE_FIX = "pixor.to(device)"
REFERENCE_EDIT = None
CLEAN = False
