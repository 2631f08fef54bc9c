"""pytorch-tabnet `TabNetNoEmbeddings(...).to(device)`: the encoder's group attention matrix is a plain tensor attribute left on the CPU.

Source: https://github.com/dreamquark-ai/tabnet/issues/578
The user builds `model = TabNetNoEmbeddings(input_dim=3, output_dim=2).to(device)` and calls it on
`x = torch.randn(2, 3).to(device)`: "Expected all tensors to be on the same device ... cuda:0 and cpu!
(when checking argument for argument mat2 in method wrapper_CUDA_mm)". The encoder keeps
`group_attention_matrix` (an identity when no feature groups are given) as a plain attribute, not a
registered buffer, so `Module.to()` never moves it; the report asks for `register_buffer`.
Stand-in: TabNetEncoder's step loop with GLU blocks reduced to Linear+GLU, sparsemax replaced by softmax.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class FeatTransformer(nn.Module):
    def __init__(self, input_dim, output_dim):
        super().__init__()
        self.fc = nn.Linear(input_dim, 2 * output_dim, bias=False)
        self.bn = nn.BatchNorm1d(2 * output_dim)

    def forward(self, x):
        return nn.functional.glu(self.bn(self.fc(x)))

class AttentiveTransformer(nn.Module):
    def __init__(self, input_dim, group_dim):
        super().__init__()
        self.fc = nn.Linear(input_dim, group_dim, bias=False)
        self.bn = nn.BatchNorm1d(group_dim)

    def forward(self, priors, processed_feat):
        x = self.bn(self.fc(processed_feat)) * priors
        return torch.softmax(x, dim=-1)

class TabNetEncoder(nn.Module):
    def __init__(self, input_dim, n_d=8, n_a=8, n_steps=3, gamma=1.3, group_attention_matrix=None):
        super().__init__()
        self.input_dim, self.n_d, self.n_a, self.n_steps, self.gamma = input_dim, n_d, n_a, n_steps, gamma
        self.initial_bn = nn.BatchNorm1d(input_dim)
        if group_attention_matrix is None:
            self.group_attention_matrix = torch.eye(input_dim)
            self.attention_dim = input_dim
        else:
            self.group_attention_matrix = group_attention_matrix
            self.attention_dim = group_attention_matrix.shape[0]
        self.initial_splitter = FeatTransformer(input_dim, n_d + n_a)
        self.feat_transformers = nn.ModuleList(FeatTransformer(input_dim, n_d + n_a) for _ in range(n_steps))
        self.att_transformers = nn.ModuleList(AttentiveTransformer(n_a, self.attention_dim) for _ in range(n_steps))

    def forward(self, x):
        x = self.initial_bn(x)
        prior = torch.ones((x.shape[0], self.attention_dim), device=x.device)
        att = self.initial_splitter(x)[:, self.n_d:]
        steps_output = []
        for step in range(self.n_steps):
            M = self.att_transformers[step](prior, att)
            prior = torch.mul(self.gamma - M, prior)
            M_feature_level = torch.matmul(M, self.group_attention_matrix)
            out = self.feat_transformers[step](torch.mul(M_feature_level, x))
            steps_output.append(torch.relu(out[:, :self.n_d]))
            att = out[:, self.n_d:]
        return steps_output

class TabNetNoEmbeddings(nn.Module):
    def __init__(self, input_dim, output_dim, n_d=8, n_a=8, n_steps=3):
        super().__init__()
        self.encoder = TabNetEncoder(input_dim, n_d=n_d, n_a=n_a, n_steps=n_steps)
        self.final_mapping = nn.Linear(n_d, output_dim, bias=False)

    def forward(self, x):
        res = torch.sum(torch.stack(self.encoder(x), dim=0), dim=0)
        return self.final_mapping(res)

device = torch.device("cuda:0")
model = TabNetNoEmbeddings(input_dim=3, output_dim=2).to(device)
model.eval()
x = torch.randn(2, 3).to(device)
'''
CELL = '''
out = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.encoder.group_attention_matrix"]
FIX = "namespace"
REFERENCE_FIX = '''
model.encoder.group_attention_matrix = model.encoder.group_attention_matrix.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
