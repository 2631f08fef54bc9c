"""Look-alike: DeepChem's `GlobalMutualInformationLoss` makes `pos_mask` with `torch.eye(num_graphs)` and moves it to `global_enc.device` at once.

Source: https://github.com/deepchem/deepchem/blob/master/deepchem/models/losses.py
The current loss closure reads `device = global_enc.device`, builds `pos_mask = torch.eye(num_graphs).to(device)`
and `neg_mask = 1 - pos_mask`, and mixes them with `torch.mm(global_enc, global_enc2.t())`; the JSD
expectations use a Python float `math.log(2.)`. A CPU factory call whose result is moved in the same
line, and Python scalars, so nothing is wrong with GPU encodings. Stand-ins: deepchem's `Loss` base
and `MultilayerPerceptron` reduced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

class Loss:
    """deepchem.models.losses.Loss, reduced."""
    pass

def get_positive_expectation(p_samples, measure='JSD', average_loss=True):
    log_2 = math.log(2.)
    Ep = log_2 - torch.nn.functional.softplus(-p_samples)
    return Ep.mean() if average_loss else Ep

def get_negative_expectation(q_samples, measure='JSD', average_loss=True):
    log_2 = math.log(2.)
    Eq = torch.nn.functional.softplus(-q_samples) + q_samples - log_2
    return Eq.mean() if average_loss else Eq

class GlobalMutualInformationLoss(Loss):
    """deepchem.models.losses.GlobalMutualInformationLoss (current)."""
    def _create_pytorch_loss(self, measure='JSD', average_loss=True):

        def loss(global_enc, global_enc2):
            device = global_enc.device
            num_graphs = global_enc.shape[0]
            pos_mask = torch.eye(num_graphs).to(device)
            neg_mask = 1 - pos_mask

            res = torch.mm(global_enc, global_enc2.t())

            E_pos = get_positive_expectation(res * pos_mask, measure, average_loss)
            E_pos = (E_pos * pos_mask).sum() / pos_mask.sum()
            E_neg = get_negative_expectation(res * neg_mask, measure, average_loss)
            E_neg = (E_neg * neg_mask).sum() / neg_mask.sum()

            return E_neg - E_pos

        return loss

class MultilayerPerceptron(nn.Module):
    """deepchem.models.torch_models.layers.MultilayerPerceptron, reduced."""
    def __init__(self, d_input, d_output, d_hidden=(16,)):
        super().__init__()
        layers, d = [], d_input
        for h in d_hidden:
            layers += [nn.Linear(d, h), nn.ReLU()]
            d = h
        layers.append(nn.Linear(d, d_output))
        self.model = nn.Sequential(*layers)
    def forward(self, x):
        return self.model(x)

device = torch.device("cuda:0")
dim = 4
encoding = torch.randn(3, 2 * dim, device=device)
g_enc = MultilayerPerceptron(2 * dim, dim).to(device)(encoding)
g_enc2 = MultilayerPerceptron(2 * dim, dim).to(device)(encoding)
globalloss = GlobalMutualInformationLoss()
'''
CELL = '''
loss = globalloss._create_pytorch_loss()(g_enc, g_enc2)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
