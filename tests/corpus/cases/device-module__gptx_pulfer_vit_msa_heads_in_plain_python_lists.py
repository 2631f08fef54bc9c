"""ViT-from-scratch tutorial (MNIST) on a GPU: `MyMSA` keeps its per-head q/k/v `nn.Linear`s in plain Python lists, so `model.to(device)` leaves them on the CPU.

Source: https://github.com/BrianPulfer/PapersReimplementations/issues/1
A reader asked how to run the tutorial's `MyViT` on a GPU. The author first pointed at the
positional embedding (added with `.to(self.device)` in commit dceab8a) and at `model.to(device)`;
the reader replied that it "still doesn't work", and the author "updated the script": commit
1b9c69a wraps `self.q_mappings`, `self.k_mappings`, `self.v_mappings` in `nn.ModuleList`, since
Linear layers held in a plain list are not registered submodules and never move with the model.
Stand-in: `vit/vit_torch.py` at commit 720b75d (GPU support and `model.to(device)` in, lists not
yet fixed), MNIST replaced by a random batch; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss

np.random.seed(0)
torch.manual_seed(0)

class MyViT(nn.Module):
    def __init__(self, input_shape, n_patches=7, hidden_d=8, n_heads=2, out_d=10, device=None):
        super(MyViT, self).__init__()
        self.device = device
        self.input_shape = input_shape
        self.n_patches = n_patches
        self.n_heads = n_heads
        assert input_shape[1] % n_patches == 0, "Input shape not entirely divisible by number of patches"
        assert input_shape[2] % n_patches == 0, "Input shape not entirely divisible by number of patches"
        self.patch_size = (input_shape[1] / n_patches, input_shape[2] / n_patches)
        self.hidden_d = hidden_d
        self.input_d = int(input_shape[0] * self.patch_size[0] * self.patch_size[1])
        self.linear_mapper = nn.Linear(self.input_d, self.hidden_d)
        self.class_token = nn.Parameter(torch.rand(1, self.hidden_d))
        self.ln1 = nn.LayerNorm((self.n_patches ** 2 + 1, self.hidden_d))
        self.msa = MyMSA(self.hidden_d, n_heads)
        self.ln2 = nn.LayerNorm((self.n_patches ** 2 + 1, self.hidden_d))
        self.enc_mlp = nn.Sequential(
            nn.Linear(self.hidden_d, self.hidden_d),
            nn.ReLU()
        )
        self.mlp = nn.Sequential(
            nn.Linear(self.hidden_d, out_d),
            nn.Softmax(dim=-1)
        )

    def forward(self, images):
        n, c, w, h = images.shape
        patches = images.reshape(n, self.n_patches ** 2, self.input_d)
        tokens = self.linear_mapper(patches)
        tokens = torch.stack([torch.vstack((self.class_token, tokens[i])) for i in range(len(tokens))])
        tokens += get_positional_embeddings(self.n_patches ** 2 + 1, self.hidden_d).repeat(n, 1, 1).to(self.device)
        out = tokens + self.msa(self.ln1(tokens))
        out = out + self.enc_mlp(self.ln2(out))
        out = out[:, 0]
        return self.mlp(out)


class MyMSA(nn.Module):
    def __init__(self, d, n_heads=2):
        super(MyMSA, self).__init__()
        self.d = d
        self.n_heads = n_heads
        assert d % n_heads == 0, f"Can't divide dimension {d} into {n_heads} heads"
        d_head = int(d / n_heads)
        self.q_mappings = [nn.Linear(d_head, d_head) for _ in range(self.n_heads)]
        self.k_mappings = [nn.Linear(d_head, d_head) for _ in range(self.n_heads)]
        self.v_mappings = [nn.Linear(d_head, d_head) for _ in range(self.n_heads)]
        self.d_head = d_head
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, sequences):
        result = []
        for sequence in sequences:
            seq_result = []
            for head in range(self.n_heads):
                q_mapping = self.q_mappings[head]
                k_mapping = self.k_mappings[head]
                v_mapping = self.v_mappings[head]
                seq = sequence[:, head * self.d_head: (head + 1) * self.d_head]
                q, k, v = q_mapping(seq), k_mapping(seq), v_mapping(seq)
                attention = self.softmax(q @ k.T / (self.d_head ** 0.5))
                seq_result.append(attention @ v)
            result.append(torch.hstack(seq_result))
        return torch.cat([torch.unsqueeze(r, dim=0) for r in result])


def get_positional_embeddings(sequence_length, d):
    result = torch.ones(sequence_length, d)
    for i in range(sequence_length):
        for j in range(d):
            result[i][j] = np.sin(i / (10000 ** (j / d))) if j % 2 == 0 else np.cos(i / (10000 ** ((j - 1) / d)))
    return result


device = torch.device("meta")      # torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MyViT((1, 28, 28), n_patches=7, hidden_d=20, n_heads=2, out_d=10, device=device).to(device)
criterion = CrossEntropyLoss()
x, y = torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,))   # a batch from the MNIST DataLoader
x, y = x.to(device), y.to(device)
'''
CELL = '''
y_hat = model(x)
loss = criterion(y_hat, y) / len(x)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "found at least two devices")
CULPRITS = ["model.msa"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        self.q_mappings = [nn.Linear(d_head, d_head) for _ in range(self.n_heads)]
        self.k_mappings = [nn.Linear(d_head, d_head) for _ in range(self.n_heads)]
        self.v_mappings = [nn.Linear(d_head, d_head) for _ in range(self.n_heads)]""",
                  """        self.q_mappings = nn.ModuleList([nn.Linear(d_head, d_head) for _ in range(self.n_heads)])
        self.k_mappings = nn.ModuleList([nn.Linear(d_head, d_head) for _ in range(self.n_heads)])
        self.v_mappings = nn.ModuleList([nn.Linear(d_head, d_head) for _ in range(self.n_heads)])""")
CLEAN = False
