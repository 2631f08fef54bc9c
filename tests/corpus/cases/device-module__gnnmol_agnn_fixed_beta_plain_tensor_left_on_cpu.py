"""pytorch-AGNN on Cora with CUDA: the first propagation layer's fixed `beta` is a plain tensor, `model.cuda()` leaves it on the CPU.

Source: https://github.com/dawnranger/pytorch-AGNN/issues/5
Training with `--cuda` failed in `GraphAttentionLayer.forward` (`cos = self.beta * torch.div(...)`,
"expected device cpu but got device cuda:0"). For Cora the first layer is non-trainable and its
`beta` is `Variable(torch.zeros(1), requires_grad=False)`: neither a Parameter nor a buffer, so
`model.cuda()` never moves it. The suggested fix is to put that `beta` on the GPU (`self.beta.cuda()`).
`.cuda()` is written `.to(device)` here. Stand-in: the repo's model.py (Variable dropped, xavier init kept) and a tiny random graph.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.parameter import Parameter
import torch.nn.functional as F

class GraphAttentionLayer(nn.Module):
    def __init__(self, requires_grad=True):
        super(GraphAttentionLayer, self).__init__()
        if requires_grad:
            self.beta = Parameter(torch.Tensor(1).uniform_(0, 1), requires_grad=requires_grad)
        else:
            self.beta = torch.zeros(1, requires_grad=requires_grad)

    def forward(self, x, adj):
        norm2 = torch.norm(x, 2, 1).view(-1, 1)
        cos = self.beta * torch.div(torch.mm(x, x.t()), torch.mm(norm2, norm2.t()) + 1e-7)
        mask = (1. - adj) * -1e9
        masked = cos + mask
        P = F.softmax(masked, dim=1)
        output = torch.mm(P, x)
        return output

class LinearLayer(nn.Module):
    def __init__(self, in_features, out_features, initializer=nn.init.xavier_uniform_):
        super(LinearLayer, self).__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(initializer(torch.Tensor(in_features, out_features)))

    def forward(self, input):
        return torch.mm(input, self.weight)

class AGNN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, nlayers, dropout_rate):
        super(AGNN, self).__init__()
        self.layers = nlayers
        self.dropout_rate = dropout_rate
        self.embeddinglayer = LinearLayer(nfeat, nhid)
        self.attentionlayers = nn.ModuleList()
        # for Cora dataset, the first propagation layer is non-trainable and beta is fixed at 0
        self.attentionlayers.append(GraphAttentionLayer(requires_grad=False))
        for i in range(1, self.layers):
            self.attentionlayers.append(GraphAttentionLayer())
        self.outputlayer = LinearLayer(nhid, nclass)

    def forward(self, x, adj):
        x = F.relu(self.embeddinglayer(x))
        x = F.dropout(x, self.dropout_rate, training=self.training)
        for i in range(self.layers):
            x = self.attentionlayers[i](x, adj)
        x = self.outputlayer(x)
        x = F.dropout(x, self.dropout_rate, training=self.training)
        return F.log_softmax(x, dim=1)

n_nodes, n_feat, n_class = 20, 30, 7
features = torch.rand(n_nodes, n_feat)
adj = (torch.rand(n_nodes, n_nodes) > 0.8).float()
labels = torch.randint(0, n_class, (n_nodes,))
idx_train = torch.arange(10)

device = torch.device("cuda:0")           # train.py: model.cuda(), features.cuda(), ...
model = AGNN(nfeat=n_feat, nhid=16, nclass=n_class, nlayers=4, dropout_rate=0.5)
model.to(device)
features = features.to(device)
adj = adj.to(device)
labels = labels.to(device)
idx_train = idx_train.to(device)
model.eval()
'''
CELL = '''
output = model(features, adj)
loss_val = F.nll_loss(output, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.attentionlayers[0].beta"]
FIX = "namespace"
REFERENCE_FIX = '''
model.attentionlayers[0].beta = model.attentionlayers[0].beta.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
