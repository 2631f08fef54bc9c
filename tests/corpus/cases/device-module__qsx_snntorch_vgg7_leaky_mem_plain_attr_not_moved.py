"""snnTorch VGG7_SNN built and moved to the GPU: each `snn.Leaky`'s `mem` stays on the CPU.

Source: https://github.com/jeshraghian/snntorch/issues/316
The user (snntorch 0.9.0, Colab) built a `VGG7_SNN` of Conv2d/BatchNorm2d/`snn.Leaky` layers,
moved it to cuda and got "Expected all tensors to be on the same device" on the first forward.
The membrane state `mem` of `snn.Leaky` is a plain tensor attribute, so `net.to(device)` never
moves it; the user's workaround (commented out in the report) sets
`self.leaky1.mem = self.leaky1.mem.to(torch.device("cuda"))` for every Leaky.
Stand-in: snn.Leaky reduced to its state handling (mem kept as a plain attribute, re-created
with `torch.zeros_like(input_, device=self.mem.device)` when the shape changes); two blocks of
the user's net.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Leaky(nn.Module):
    """snn.Leaky stand-in: beta/threshold are buffers, the membrane is a plain attribute."""
    def __init__(self, beta, threshold=1.0):
        super().__init__()
        self.register_buffer("beta", torch.as_tensor(float(beta)))
        self.register_buffer("threshold", torch.as_tensor(float(threshold)))
        self.mem = torch.zeros(1)

    def forward(self, input_):
        if self.mem.shape != input_.shape:
            self.mem = torch.zeros_like(input_, device=self.mem.device)
        self.mem = self.beta * self.mem + input_
        spk = (self.mem - self.threshold > 0).float()
        self.mem = self.mem - spk * self.threshold
        return spk

class VGG7_SNN(nn.Module):
    def __init__(self, beta, num_classes=10):
        super(VGG7_SNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 3, kernel_size=3)
        self.bn1 = nn.BatchNorm2d(3)
        self.leaky1 = Leaky(beta=beta)
        #self.leaky1.mem = self.leaky1.mem.to(torch.device("cuda"))
        self.conv2 = nn.Conv2d(3, 64, kernel_size=3)
        self.bn2 = nn.BatchNorm2d(64)
        self.leaky2 = Leaky(beta=beta)
        #self.leaky2.mem = self.leaky2.mem.to(torch.device("cuda"))
        self.pool1 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.fc = nn.Linear(64 * 12 * 12, num_classes)

    def forward(self, x):
        x = self.leaky1(self.bn1(self.conv1(x)))
        x = self.pool1(self.leaky2(self.bn2(self.conv2(x))))
        return self.fc(x.flatten(1))

device = torch.device("cuda:0")
net = VGG7_SNN(beta=0.9).to(device)
net.eval()
data = torch.randn(8, 1, 28, 28, device=device)
'''
CELL = '''
out = net(data)
print(out.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net.leaky1"]
FIX = "namespace"
REFERENCE_FIX = '''
net.leaky1.mem = net.leaky1.mem.to(device)
net.leaky2.mem = net.leaky2.mem.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
