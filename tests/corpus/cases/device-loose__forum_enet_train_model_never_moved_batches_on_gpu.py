"""ENet training script on Colab: the batches and the class-weighted loss go to the GPU, the model never does.

Source: https://github.com/iArunava/ENet-Real-Time-Semantic-Segmentation/issues/5
"getting Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the
same" at `out = enet(X_batch.float())` in train.py, from the InitialBlock's conv. train.py moves
`X_batch, mask_batch = X_batch.to(device), mask_batch.to(device)` and builds
`nn.CrossEntropyLoss(weight=torch.FloatTensor(class_weights).to(device))`, but `enet = ENet(nc)`
is never sent to the device (later versions of the repo add `enet = enet.to(device)`).
Stand-in: ENet reduced to its InitialBlock (conv + maxpool concat, BN, PReLU), one bottleneck and
an upsampling head; the CamVid loader by random batches; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class InitialBlock(nn.Module):
    def __init__(self, in_channels=3, out_channels=13):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=2, stride=2, padding=0)
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=2, padding=1)
        self.prelu = nn.PReLU(16)
        self.batchnorm = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        main = self.conv(x)
        main = self.batchnorm(main)
        side = self.maxpool(x)
        x = torch.cat((main, side), dim=1)
        x = self.prelu(x)
        return x

class ENet(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.C = C
        self.init = InitialBlock()
        self.b10 = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.PReLU())
        self.fullconv = nn.ConvTranspose2d(16, self.C, kernel_size=3, stride=2, padding=1, output_padding=1)

    def forward(self, x):
        x = self.init(x)
        x = self.b10(x)
        x = self.fullconv(x)
        return x

device = torch.device("meta")   # the GPU, simulated with meta
nc = 12
class_weights = [1.0] * nc

enet = ENet(nc)
criterion = nn.CrossEntropyLoss(weight=torch.FloatTensor(class_weights).to(device))
optimizer = torch.optim.Adam(enet.parameters(), lr=5e-4, weight_decay=2e-4)
enet.train()

X_batch = torch.rand(4, 3, 64, 96) * 255          # next(pipe)
mask_batch = torch.randint(0, nc, (4, 64, 96))
'''
CELL = '''
X_batch, mask_batch = X_batch.to(device), mask_batch.to(device)
optimizer.zero_grad()
out = enet(X_batch.float())
loss = criterion(out, mask_batch.long())
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same",
                "Expected all tensors to be on the same device",
                "is not on the expected device",
                "should be the same")
CULPRITS = ["enet"]
FIX = "namespace"
REFERENCE_FIX = '''
enet = enet.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
