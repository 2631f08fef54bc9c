"""Deep-ranking image similarity: the triplet batches are sent to the GPU, the TripletNet never is.

Source: https://github.com/Zhenye-Na/image-similarity-using-deep-ranking/issues/2
"RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the
same": in the training loop `data1, data2, data3 = data1.to(device), data2.to(device),
data3.to(device)` moves the (query, positive, negative) images to cuda, then
`embedded_a, embedded_p, embedded_n = net(data1, data2, data3)` runs the TripletNet whose weights are
still on the CPU. The maintainer: the model is not on the GPU; add `net.to(device)`.
Stand-ins: the repo's `TripletNet` / `EmbeddingNet` with a tiny conv trunk instead of ResNet-101,
`nn.TripletMarginLoss` as the criterion; simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class TripletNet(nn.Module):
    """Triplet Network."""
    def __init__(self, embeddingnet):
        super(TripletNet, self).__init__()
        self.embeddingnet = embeddingnet

    def forward(self, a, p, n):
        embedded_a = self.embeddingnet(a)
        embedded_p = self.embeddingnet(p)
        embedded_n = self.embeddingnet(n)
        return embedded_a, embedded_p, embedded_n

class EmbeddingNet(nn.Module):
    """ConvNet (stand-in trunk for the ResNet without its last linear layer)."""
    def __init__(self, num_ftrs=32):
        super(EmbeddingNet, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(3, num_ftrs, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1))
        self.fc1 = nn.Linear(num_ftrs, 64)

    def forward(self, x):
        out = self.features(x)
        out = out.view(out.size(0), -1)
        out = self.fc1(out)
        return out

is_gpu = True
device = torch.device("meta")          # torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = TripletNet(EmbeddingNet())
criterion = nn.TripletMarginLoss(margin=1.0)
trainloader = [(torch.randn(4, 3, 32, 32), torch.randn(4, 3, 32, 32), torch.randn(4, 3, 32, 32))]
'''
CELL = '''
for batch_idx, (data1, data2, data3) in enumerate(trainloader):
    if is_gpu:
        data1, data2, data3 = data1.to(device), data2.to(device), data3.to(device)
    embedded_a, embedded_p, embedded_n = net(data1, data2, data3)
    loss = criterion(embedded_a, embedded_p, embedded_n)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "should be the same")
CULPRITS = ["net"]
FIX = "namespace"
REFERENCE_FIX = '''
net = net.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
