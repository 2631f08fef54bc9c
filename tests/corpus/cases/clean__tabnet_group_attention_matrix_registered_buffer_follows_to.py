"""Look-alike: TabNetEncoder after the fix registers `group_attention_matrix` as a buffer, so `.to(device)` moves it.

Source: https://github.com/DanielAvdar/tabnet/pull/278
"Fix MPS device movement for constant tensors in TabNet modules": the constant grouping matrix
(an identity for ungrouped features) is registered with `self.register_buffer(...)`, so it follows
the encoder to the accelerator, and the prior is built on the input's device. A constant,
non-parameter tensor used in a matmul beside the input: nothing to report. Stand-in: the encoder's
step loop as in the library, GLU blocks reduced to Linear+GLU, sparsemax replaced by softmax; the
accelerator is a (fake) cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        x = torch.mul(self.bn(self.fc(processed_feat)), priors)
        return torch.softmax(x, dim=-1)

class TabNetEncoder(nn.Module):
    def __init__(self, input_dim, output_dim, n_d=8, n_a=8, n_steps=3, gamma=1.3, epsilon=1e-15,
                 momentum=0.02, group_attention_matrix=None):
        super().__init__()
        self.input_dim, self.n_d, self.n_a, self.n_steps = input_dim, n_d, n_a, n_steps
        self.gamma, self.epsilon = gamma, epsilon
        self.initial_bn = nn.BatchNorm1d(self.input_dim, momentum=0.01)
        if group_attention_matrix is None:
            self.register_buffer("group_attention_matrix", torch.eye(self.input_dim))
            self.attention_dim = self.input_dim
        else:
            self.register_buffer("group_attention_matrix", group_attention_matrix)
            self.attention_dim = group_attention_matrix.shape[0]
        self.initial_splitter = FeatTransformer(self.input_dim, n_d + n_a)
        self.feat_transformers = nn.ModuleList(
            [FeatTransformer(self.input_dim, n_d + n_a) for _ in range(n_steps)])
        self.att_transformers = nn.ModuleList(
            [AttentiveTransformer(n_a, self.attention_dim, momentum) for _ in range(n_steps)])

    def forward(self, x, prior=None):
        x = self.initial_bn(x)
        if prior is None:
            prior = torch.ones((x.shape[0], self.attention_dim), device=x.device)
        M_loss = 0
        att = self.initial_splitter(x).narrow(1, self.n_d, self.n_a)
        steps_output = []
        for step in range(self.n_steps):
            M = self.att_transformers[step](prior, att)
            M_loss += torch.mean(torch.sum(torch.mul(M, torch.log(M + self.epsilon)), dim=1))
            prior = torch.mul(self.gamma - M, prior)
            M_feature_level = torch.matmul(M, self.group_attention_matrix)
            out = self.feat_transformers[step](torch.mul(M_feature_level, x))
            steps_output.append(nn.ReLU()(out.narrow(1, 0, self.n_d)))
            att = out.narrow(1, self.n_d, self.n_a)
        return steps_output, M_loss / self.n_steps

device = torch.device("cuda:0")
grouping = torch.tensor([[0.5, 0.5, 0.0, 0.0, 0.0, 0.0],       # features 0 and 1 share attention
                         [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
                         [0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
                         [0.0, 0.0, 0.0, 0.0, 0.5, 0.5]])
encoder = TabNetEncoder(input_dim=6, output_dim=5, n_d=5, n_a=5, n_steps=3, gamma=1.5,
                        group_attention_matrix=grouping).eval().to(device)
X_batch = torch.randn(16, 6).to(device)
'''
CELL = '''
steps_output, M_loss = encoder(X_batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
