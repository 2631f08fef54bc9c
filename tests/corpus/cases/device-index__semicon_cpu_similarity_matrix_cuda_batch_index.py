"""Deep hashing training: the pairwise-similarity matrix S is on the CPU, the batch indices on the GPU.

Source: https://github.com/aassxun/SEMICON/issues/2
`criterion(F, B, S[index, :], sample_index[index])` raised "indices should be either on cpu or on
the same device as the indexed tensor (cpu)": the dataloader's `index` was moved to cuda while the
similarity matrix `S` built at the start of training stayed on the CPU. Simulated with meta as the accelerator;
indexing a CPU tensor with a meta index passes, so the CPU rows of S surface in the loss right after.
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

device = torch.device("meta")
num_train, code_length, num_classes = 40, 12, 5

class HashNet(nn.Module):
    def __init__(self, in_dim=32, code_length=12):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU())
        self.hash = nn.Linear(64, code_length)

    def forward(self, x):
        return torch.tanh(self.hash(self.features(x)))

class ADSH_Loss(nn.Module):
    def __init__(self, code_length, gamma=200):
        super().__init__()
        self.code_length = code_length
        self.gamma = gamma

    def forward(self, F, B, S, omega):
        hash_loss = ((self.code_length * S - F @ B.t()) ** 2).sum()
        quantization_loss = ((F - B[omega, :]) ** 2).sum()
        return (hash_loss + self.gamma * quantization_loss) / F.shape[0]

train_labels = torch.nn.functional.one_hot(torch.randint(0, num_classes, (num_train,)), num_classes).float()
retrieval_labels = train_labels.clone()
S = (train_labels @ retrieval_labels.t() > 0).float()   # built once, left on the CPU
S = S * 1.0 + (1 - S) * -1.0
model = HashNet(code_length=code_length).to(device)
criterion = ADSH_Loss(code_length)
B = torch.randn(num_train, code_length).sign().to(device)
sample_index = torch.arange(num_train).to(device)
data = torch.randn(8, 32).to(device)
index = torch.randint(0, num_train, (8,)).to(device)
'''
CELL = '''
F = model(data)
loss = criterion(F, B, S[index, :], sample_index[index])
'''
EXPECT_ERROR = ("is not on the expected device",
                "indices should be either on cpu or on the same device")
CULPRITS = ["S"]
FIX = "namespace"
REFERENCE_FIX = '''
S = S.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
