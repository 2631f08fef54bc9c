"""PointNet (nikitakaraevv/pointnet) classifying a single ModelNet object: the sampled point cloud is float64.

Source: https://github.com/nikitakaraevv/pointnet/issues/14
The reporter sampled `pointcloud = PointSampler(3000)((verts, faces))` from a .off file (numpy
float64, as are the notebook's `Normalize`/`ToTensor` transforms) and ran
`outputs, __, __ = pointnet(inputs.transpose(1,2))`, which failed in `conv1d` with "expected scalar
type Double but found Float". The notebook's training loop casts with `data['pointcloud'].to(device).float()`;
the single-object code left that out. PointNet is a reduced stand-in (Tnet + Transform + head),
the mesh sampler a random float64 array. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Tnet(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.k = k
        self.conv1 = nn.Conv1d(k, 16, 1)
        self.conv2 = nn.Conv1d(16, 32, 1)
        self.fc = nn.Linear(32, k * k)

    def forward(self, input):
        bs = input.size(0)
        xb = torch.relu(self.conv2(torch.relu(self.conv1(input))))
        xb = nn.MaxPool1d(xb.size(-1))(xb).flatten(1)
        init = torch.eye(self.k, requires_grad=True).repeat(bs, 1, 1)
        return self.fc(xb).view(-1, self.k, self.k) + init

class Transform(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_transform = Tnet(k=3)
        self.conv1 = nn.Conv1d(3, 32, 1)
        self.conv2 = nn.Conv1d(32, 64, 1)

    def forward(self, input):
        matrix3x3 = self.input_transform(input)
        xb = torch.bmm(torch.transpose(input, 1, 2), matrix3x3).transpose(1, 2)
        xb = torch.relu(self.conv2(torch.relu(self.conv1(xb))))
        return nn.MaxPool1d(xb.size(-1))(xb).flatten(1), matrix3x3, None

class PointNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.transform = Transform()
        self.fc = nn.Linear(64, classes)
        self.logsoftmax = nn.LogSoftmax(dim=1)

    def forward(self, input):
        xb, matrix3x3, matrix64x64 = self.transform(input)
        return self.logsoftmax(self.fc(xb)), matrix3x3, matrix64x64

class PointSampler:
    def __init__(self, output_size):
        self.output_size = output_size
    def __call__(self, mesh):
        verts, faces = mesh
        rng = np.random.default_rng(0)
        return rng.random((self.output_size, 3))          # float64, like the notebook's sampler

pointnet = PointNet()
pointnet.eval()
verts, faces = np.random.default_rng(1).random((50, 3)), np.zeros((10, 3), dtype=np.int64)   # read_off(f)
pointcloud = PointSampler(3000)((verts, faces))
data = {'pointcloud': torch.from_numpy(pointcloud).unsqueeze(0)}                               # ToTensor()
'''
CELL = '''
with torch.no_grad():
    inputs = data['pointcloud']
    outputs, __, __ = pointnet(inputs.transpose(1, 2))
    _, preds = torch.max(outputs.data, 1)
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "Input type (double) and bias type (float)",
                "should be the same")
CULPRITS = ["data['pointcloud']"]
FIX = "namespace"
REFERENCE_FIX = '''
data['pointcloud'] = data['pointcloud'].float()
'''
REFERENCE_EDIT = None
CLEAN = False
