"""External-Attention-pytorch's MlpMixer keeps its mixer blocks in a Python list.

Source: https://github.com/xmu-xiaoma666/External-Attention-pytorch/issues/94
"Most modules report errors when using GPU": errors like "Input type (torch.cuda.FloatTensor) and
weight type (torch.FloatTensor) should be the same" / "Expected all tensors to be on the same
device"; the reporter's fix for model/mlp/mlp_mixer.py (line 49) is to change
`self.mlp_blocks=[]` to `self.mlp_blocks=nn.ModuleList([])`. Reduced sizes.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class MlpBlock(nn.Module):
    def __init__(self, input_dim, mlp_dim=512):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, mlp_dim)
        self.gelu = nn.GELU()
        self.fc2 = nn.Linear(mlp_dim, input_dim)

    def forward(self, x):
        return self.fc2(self.gelu(self.fc1(x)))

class MixerBlock(nn.Module):
    def __init__(self, tokens_mlp_dim=16, channels_mlp_dim=1024, tokens_hidden_dim=32, channels_hidden_dim=1024):
        super().__init__()
        self.ln = nn.LayerNorm(channels_mlp_dim)
        self.tokens_mlp_block = MlpBlock(tokens_mlp_dim, mlp_dim=tokens_hidden_dim)
        self.channels_mlp_block = MlpBlock(channels_mlp_dim, mlp_dim=channels_hidden_dim)

    def forward(self, x):
        y = self.ln(x)
        y = y.transpose(1, 2)
        y = self.tokens_mlp_block(y)
        y = y.transpose(1, 2)
        out = x + y
        y = self.ln(out)
        y = out + self.channels_mlp_block(y)
        return y

class MlpMixer(nn.Module):
    def __init__(self, num_classes, num_blocks, patch_size, tokens_hidden_dim, channels_hidden_dim, tokens_mlp_dim, channels_mlp_dim):
        super().__init__()
        self.num_classes = num_classes
        self.num_blocks = num_blocks
        self.patch_size = patch_size
        self.tokens_mlp_dim = tokens_mlp_dim
        self.channels_mlp_dim = channels_mlp_dim
        self.embd = nn.Conv2d(3, channels_mlp_dim, kernel_size=patch_size, stride=patch_size)
        self.ln = nn.LayerNorm(channels_mlp_dim)
        self.mlp_blocks=[]
        for _ in range(num_blocks):
            self.mlp_blocks.append(MixerBlock(tokens_mlp_dim, channels_mlp_dim, tokens_hidden_dim, channels_hidden_dim))
        self.fc = nn.Linear(channels_mlp_dim, num_classes)

    def forward(self, x):
        y = self.embd(x)
        bs, c, h, w = y.shape
        y = y.view(bs, c, -1).transpose(1, 2)
        if self.tokens_mlp_dim != y.shape[1]:
            raise ValueError('Tokens_mlp_dim is not correct.')
        for i in range(self.num_blocks):
            y = self.mlp_blocks[i](y)
        y = self.ln(y)
        y = torch.mean(y, dim=1, keepdim=False)
        return self.fc(y)

device = torch.device("cuda:0")
mlp_mixer = MlpMixer(num_classes=10, num_blocks=2, patch_size=8, tokens_hidden_dim=16,
                     channels_hidden_dim=64, tokens_mlp_dim=16, channels_mlp_dim=32).to(device)
input = torch.randn(2, 3, 32, 32).to(device)
'''
CELL = '''
output = mlp_mixer(input)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["mlp_mixer.mlp_blocks"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.mlp_blocks=[]", "self.mlp_blocks=nn.ModuleList([])")
CLEAN = False
