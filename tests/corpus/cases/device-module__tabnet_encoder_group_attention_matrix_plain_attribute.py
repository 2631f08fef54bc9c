"""pytorch-tabnet (DanielAvdar fork): TabNetEncoder keeps `group_attention_matrix` as a plain tensor attribute; `.to(device)` leaves it on the CPU.

Source: https://github.com/DanielAvdar/tabnet/issues/269
The user built a `TabNetEncoder`, moved it and the input to the accelerator with `.to(device)` and
called it: `torch.matmul(M, self.group_attention_matrix)` failed with "Tensor for argument #2 'mat2'
is on CPU". The encoder stores `torch.eye(input_dim)` (or the user's grouping matrix) as a plain
attribute, which `Module.to()` never sees; the fix registers it as a buffer. The user was on MPS;
here the accelerator is a (fake) cuda:0. Stand-in: the encoder's step loop as in tab_network.py,
GLU feature transformers reduced to Linear+GLU, sparsemax replaced by softmax.
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
    def __init__(self, input_dim, group_dim, momentum=0.02):
        super().__init__()
        self.fc = nn.Linear(input_dim, group_dim, bias=False)
        self.bn = nn.BatchNorm1d(group_dim, momentum=momentum)

    def forward(self, priors, processed_feat):
        x = self.bn(self.fc(processed_feat))
        x = torch.mul(x, priors)
        return torch.softmax(x, dim=-1)          # sparsemax in the library

class TabNetEncoder(nn.Module):
    def __init__(self, input_dim, output_dim, n_d=8, n_a=8, n_steps=3, gamma=1.3,
                 n_independent=2, n_shared=2, epsilon=1e-15, virtual_batch_size=128,
                 momentum=0.02, mask_type="sparsemax", group_attention_matrix=None):
        super().__init__()
        self.input_dim, self.output_dim = input_dim, output_dim
        self.n_d, self.n_a, self.n_steps, self.gamma, self.epsilon = n_d, n_a, n_steps, gamma, epsilon
        self.initial_bn = nn.BatchNorm1d(self.input_dim, momentum=0.01)
        if group_attention_matrix is None:
            self.group_attention_matrix = torch.eye(self.input_dim)
            self.attention_dim = self.input_dim
        else:
            self.attention_dim = group_attention_matrix.shape[0]
            self.group_attention_matrix = group_attention_matrix
        self.initial_splitter = FeatTransformer(self.input_dim, n_d + n_a)
        self.feat_transformers = nn.ModuleList(
            [FeatTransformer(self.input_dim, n_d + n_a) for _ in range(n_steps)])
        self.att_transformers = nn.ModuleList(
            [AttentiveTransformer(n_a, self.attention_dim, momentum=momentum) for _ in range(n_steps)])

    def forward(self, x, prior=None):
        x = self.initial_bn(x)
        bs = x.shape[0]
        if prior is None:
            prior = torch.ones((bs, self.attention_dim)).to(x.device)
        M_loss = 0
        att = self.initial_splitter(x).narrow(1, self.n_d, self.n_a)
        steps_output = []
        for step in range(self.n_steps):
            M = self.att_transformers[step](prior, att)
            M_loss += torch.mean(torch.sum(torch.mul(M, torch.log(M + self.epsilon)), dim=1))
            prior = torch.mul(self.gamma - M, prior)
            M_feature_level = torch.matmul(M, self.group_attention_matrix)
            masked_x = torch.mul(M_feature_level, x)
            out = self.feat_transformers[step](masked_x)
            d = nn.ReLU()(out.narrow(1, 0, self.n_d))
            steps_output.append(d)
            att = out.narrow(1, self.n_d, self.n_a)
        M_loss /= self.n_steps
        return steps_output, M_loss

input_random = torch.randn(2, 4)
tabnet_encoder = TabNetEncoder(input_dim=4, output_dim=5, n_d=5, n_a=5, n_steps=3, gamma=1.5,
                               n_independent=2, n_shared=2, epsilon=1e-15, virtual_batch_size=2,
                               momentum=0.02, mask_type="sparsemax")
tabnet_encoder.eval()
device = torch.device("cuda:0")          # "mps" on the user's Mac
tabnet_encoder = tabnet_encoder.to(device)
input_random = input_random.to(device)
'''
CELL = '''
output, M_loss = tabnet_encoder(input_random)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is on CPU, but expected")
CULPRITS = ["tabnet_encoder.group_attention_matrix"]
FIX = "namespace"
REFERENCE_FIX = '''
tabnet_encoder.group_attention_matrix = tabnet_encoder.group_attention_matrix.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
