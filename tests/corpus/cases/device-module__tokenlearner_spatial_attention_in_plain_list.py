"""TokenLearner keeps its S SpatialAttention tokenizers in a plain Python list, which `.cuda()` never moves.

Source: https://github.com/rish-16/tokenlearner-pytorch/issues/4
The user moved a TokenLearner (and the image batch) to the GPU and got "Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same": `TokenLearner`
built `self.tokenizers = [SpatialAttention() for _ in range(S)]`, so the tokenizers' conv and
BatchNorm weights were never registered and stayed on the CPU. Fix (from the thread): wrap the list
in `nn.ModuleList` (which also lets `model.eval()` reach the tokenizers' BatchNorm). Stand-in: the library's TokenLearner inside a small ViT-style classifier (the
simulator does not check a convolution's devices, so the mismatch surfaces at the BatchNorm that
follows it, as it would on the GPU right after the conv).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class SpatialAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(2, 1, kernel_size=(1, 1), stride=1),
            nn.BatchNorm2d(1),
            nn.ReLU(),
        )
        self.sgap = nn.AvgPool2d(2)

    def forward(self, x):
        B, H, W, C = x.shape
        x = x.view(B, C, H, W)
        mx = torch.max(x, 1)[0].unsqueeze(1)
        avg = torch.mean(x, 1).unsqueeze(1)
        combined = torch.cat([mx, avg], dim=1)
        fmap = self.conv(combined)
        weight_map = torch.sigmoid(fmap)
        out = (x * weight_map).mean(dim=(-2, -1))
        return out, x * weight_map

class TokenLearner(nn.Module):
    def __init__(self, S):
        super().__init__()
        self.S = S
        self.tokenizers = [SpatialAttention() for _ in range(S)]

    def forward(self, x):
        B, _, _, C = x.shape
        Z = torch.Tensor(B, self.S, C)
        for i in range(self.S):
            Ai, _ = self.tokenizers[i](x)
            Z[:, i, :] = Ai
        return Z

class TokenLearnerClassifier(nn.Module):
    def __init__(self, channels=16, S=4, num_classes=10):
        super().__init__()
        self.embed = nn.Linear(3, channels)
        self.tokenlearner = TokenLearner(S)
        self.head = nn.Linear(channels, num_classes)

    def forward(self, img):
        feats = self.embed(img.permute(0, 2, 3, 1))      # B, H, W, C
        tokens = self.tokenlearner(feats).to(feats.device)
        return self.head(tokens.mean(dim=1))

device = torch.device("cuda:0")
model = TokenLearnerClassifier().to(device)
model.eval()
images = torch.rand(8, 3, 32, 32).to(device)
'''
CELL = '''
logits = model(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.tokenlearner.tokenizers"]
FIX = "namespace"
REFERENCE_FIX = '''
model.tokenlearner.tokenizers = nn.ModuleList(model.tokenlearner.tokenizers)
model.to(device).eval()
'''
REFERENCE_EDIT = None
CLEAN = False
