"""GWAS_NN gene-interaction net: the SNP-to-gene mask is a plain tensor attribute, created on the target device.

Source: https://github.com/tycui/GWAS_NN/blob/main/models.py
`SparseLinearLayer.__init__` builds the block mask that ties each SNP to its gene and stores it as a
plain attribute, `self.mask = self._mask(gene_size).detach().to(self.device)`. `Module.to()`/`.cuda()`
would not move such an attribute, but the layer receives the device at construction
(`Encoder(gene_size, device=device)`), so the mask is already on cuda:0 when `NNtraining` moves the
parameters there and the forward pass on GPU genotypes is right. Stand-ins: the layers of models.py,
`NNtraining.__init__` (with `.to("cuda:0")` for `.cuda()`), a small genotype matrix.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class LinearLayer(nn.Module):
    def __init__(self, input_dim, output_dim):
        super(LinearLayer, self).__init__()
        scale = 1. * np.sqrt(6. / (input_dim + output_dim))
        self.w = nn.Parameter(torch.Tensor(input_dim, output_dim).uniform_(-scale, scale))
        self.bias = nn.Parameter(torch.Tensor(output_dim).uniform_(-scale, scale))

    def forward(self, x):
        return torch.mm(x, self.w) + self.bias

class SparseLinearLayer(nn.Module):
    def __init__(self, gene_size, device):
        super(SparseLinearLayer, self).__init__()
        self.device = device
        self.input_dim = sum(gene_size)
        self.output_dim = len(gene_size)
        self.mask = self._mask(gene_size).detach().to(self.device)
        scale = 1. * np.sqrt(6. / (self.input_dim + self.output_dim))
        self.w = nn.Parameter(torch.Tensor(self.input_dim, self.output_dim).uniform_(-scale, scale).to(self.device) * self.mask)
        self.bias = nn.Parameter(torch.Tensor(self.output_dim).uniform_(-scale, scale).to(self.device))

    def forward(self, x):
        return torch.mm(x, self.w * self.mask) + self.bias

    def _mask(self, gene_size):
        index_gene = [0]
        for i in range(len(gene_size)):
            index_gene.append(gene_size[i] + index_gene[i])
        sparse_mask = torch.zeros(sum(gene_size), len(gene_size))
        for i in range(len(gene_size)):
            sparse_mask[index_gene[i]:index_gene[i + 1], i] = 1
        return sparse_mask

class Encoder(nn.Module):
    def __init__(self, gene_size, device):
        super(Encoder, self).__init__()
        self.layer = SparseLinearLayer(gene_size, device)

    def forward(self, x):
        return self.layer(x), torch.norm(self.layer.w, 1)

class Predictor(nn.Module):
    def __init__(self, gene_size):
        super(Predictor, self).__init__()
        self.Layer1 = LinearLayer(len(gene_size), 100)
        self.Layer2 = LinearLayer(100, 1)
        self.activation_fn = nn.Softplus(beta=10)

    def forward(self, x):
        x2 = self.Layer2(self.activation_fn(self.Layer1(x)))
        return x2, torch.norm(self.Layer1.w, 1) + torch.norm(self.Layer2.w, 1)

class SparseNN(nn.Module):
    def __init__(self, encoder, predictor):
        super(SparseNN, self).__init__()
        self.encoder = encoder
        self.predictor = predictor

    def forward(self, x):
        x1, kl1 = self.encoder(x)
        x2, kl2 = self.predictor(x1)
        return x2, kl1, kl2

class NNtraining(object):
    def __init__(self, model, use_cuda=False):
        self.model = model
        if use_cuda:
            self.model.to("cuda:0")                   # self.model.cuda() in GWAS_NN

device = torch.device("cuda:0")
gene_size = [5, 3, 8, 4]                              # data/snps_size.txt
x_test = torch.randint(0, 3, (50, sum(gene_size))).float()   # genotypes 0/1/2, CPU
encoder = Encoder(gene_size, device=device); predictor = Predictor(gene_size); ginn = SparseNN(encoder, predictor)
GINN = NNtraining(ginn, use_cuda=True)
'''
CELL = '''
with torch.no_grad():
    prediction_test, _, _ = GINN.model(x_test.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
