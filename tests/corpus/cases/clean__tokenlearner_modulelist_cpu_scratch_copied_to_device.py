"""Look-alike: TokenLearner with its tokenizers in an nn.ModuleList, writing into a CPU scratch tensor it moves afterwards.

Source: https://github.com/rish-16/tokenlearner-pytorch/issues/4
The fix from the thread: `self.tokenizers = nn.ModuleList([SpatialAttention() for _ in range(S)])`,
so `.to(device)` and `.eval()` reach every tokenizer. The library's forward still gathers the
tokens in `Z = torch.Tensor(B, S, C)`, a CPU tensor; copying GPU rows into it is allowed, and the
classifier moves the result back to the features' device before its head. Looks like a stray CPU
tensor, is correct.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class SpatialAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(2, 1, kernel_size=(1, 1), stride=1), nn.BatchNorm2d(1), nn.ReLU())

    def forward(self, x):
        B, H, W, C = x.shape
        x = x.view(B, C, H, W)
        mx = torch.max(x, 1)[0].unsqueeze(1)
        avg = torch.mean(x, 1).unsqueeze(1)
        fmap = self.conv(torch.cat([mx, avg], dim=1))
        weight_map = torch.sigmoid(fmap)
        return (x * weight_map).mean(dim=(-2, -1)), x * weight_map

class TokenLearner(nn.Module):
    def __init__(self, S):
        super().__init__()
        self.S = S
        self.tokenizers = nn.ModuleList([SpatialAttention() for _ in range(S)])

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
        feats = self.embed(img.permute(0, 2, 3, 1))
        tokens = self.tokenlearner(feats).to(feats.device)
        return self.head(tokens.mean(dim=1))

device = torch.device("cuda:0")
model = TokenLearnerClassifier().to(device).eval()
images = torch.rand(8, 3, 32, 32).to(device)
'''
CELL = '''
logits = model(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
