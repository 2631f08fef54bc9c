"""Social-STGCNN training step: the CPU graph batch (V_obs, A_obs, V_tr, ...) is moved as a list before the forward pass.

Source: https://github.com/abduallahmohamed/Social-STGCNN/blob/master/train.py
`train(epoch)` iterates a batch_size=1 DataLoader over TrajectoryDataset, whose items are ten CPU
tensors (trajectories, masks, and the precomputed graph node features V and adjacency A), and moves the
whole list with `batch = [tensor.cuda() for tensor in batch]` before unpacking. It then runs
`model(V_obs.permute(0, 3, 1, 2), A_obs.squeeze())` (the graph conv contracts with A via einsum) on the
model built with `social_stgcnn(...).cuda()` and accumulates `graph_loss(V_pred, V_tr)` (the bivariate
Gaussian NLL). Look-alike: a container batch of CPU tensors next to a GPU model, moved in one list
comprehension; it runs.
Stand-ins: model.py's ConvTemporalGraphical/st_gcn/social_stgcnn (n_txpcnn=5) and metrics.py's
bivariate_loss, random graphs for two scenes; `.cuda()` written as `.to(device)`, GPU simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

class ConvTemporalGraphical(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, t_kernel_size=1, t_stride=1,
                 t_padding=0, t_dilation=1, bias=True):
        super(ConvTemporalGraphical, self).__init__()
        self.kernel_size = kernel_size
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=(t_kernel_size, 1),
                              padding=(t_padding, 0), stride=(t_stride, 1), dilation=(t_dilation, 1), bias=bias)
    def forward(self, x, A):
        assert A.size(0) == self.kernel_size
        x = self.conv(x)
        x = torch.einsum('nctv,tvw->nctw', (x, A))
        return x.contiguous(), A

class st_gcn(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, use_mdn=False, stride=1, dropout=0, residual=True):
        super(st_gcn, self).__init__()
        padding = ((kernel_size[0] - 1) // 2, 0)
        self.use_mdn = use_mdn
        self.gcn = ConvTemporalGraphical(in_channels, out_channels, kernel_size[1])
        self.tcn = nn.Sequential(nn.BatchNorm2d(out_channels), nn.PReLU(),
                                 nn.Conv2d(out_channels, out_channels, (kernel_size[0], 1), (stride, 1), padding),
                                 nn.BatchNorm2d(out_channels), nn.Dropout(dropout, inplace=True))
        self.residual = nn.Sequential(nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=(stride, 1)),
                                      nn.BatchNorm2d(out_channels))
        self.prelu = nn.PReLU()
    def forward(self, x, A):
        res = self.residual(x)
        x, A = self.gcn(x, A)
        x = self.tcn(x) + res
        if not self.use_mdn:
            x = self.prelu(x)
        return x, A

class social_stgcnn(nn.Module):
    def __init__(self, n_stgcnn=1, n_txpcnn=1, input_feat=2, output_feat=5, seq_len=8, pred_seq_len=12, kernel_size=3):
        super(social_stgcnn, self).__init__()
        self.n_stgcnn, self.n_txpcnn = n_stgcnn, n_txpcnn
        self.st_gcns = nn.ModuleList([st_gcn(input_feat, output_feat, (kernel_size, seq_len))])
        self.tpcnns = nn.ModuleList([nn.Conv2d(seq_len, pred_seq_len, 3, padding=1)])
        for j in range(1, self.n_txpcnn):
            self.tpcnns.append(nn.Conv2d(pred_seq_len, pred_seq_len, 3, padding=1))
        self.tpcnn_ouput = nn.Conv2d(pred_seq_len, pred_seq_len, 3, padding=1)
        self.prelus = nn.ModuleList([nn.PReLU() for j in range(self.n_txpcnn)])
    def forward(self, v, a):
        for k in range(self.n_stgcnn):
            v, a = self.st_gcns[k](v, a)
        v = v.view(v.shape[0], v.shape[2], v.shape[1], v.shape[3])
        v = self.prelus[0](self.tpcnns[0](v))
        for k in range(1, self.n_txpcnn - 1):
            v = self.prelus[k](self.tpcnns[k](v)) + v
        v = self.tpcnn_ouput(v)
        v = v.view(v.shape[0], v.shape[2], v.shape[1], v.shape[3])
        return v, a

def bivariate_loss(V_pred, V_trgt):
    normx = V_trgt[:, :, 0] - V_pred[:, :, 0]
    normy = V_trgt[:, :, 1] - V_pred[:, :, 1]
    sx = torch.exp(V_pred[:, :, 2])
    sy = torch.exp(V_pred[:, :, 3])
    corr = torch.tanh(V_pred[:, :, 4])
    sxsy = sx * sy
    z = (normx / sx) ** 2 + (normy / sy) ** 2 - 2 * ((corr * normx * normy) / sxsy)
    negRho = 1 - corr ** 2
    result = torch.exp(-z / (2 * negRho))
    denom = 2 * np.pi * (sxsy * torch.sqrt(negRho))
    result = result / denom
    epsilon = 1e-20
    result = -torch.log(torch.clamp(result, min=epsilon))
    return torch.mean(result)

graph_loss = bivariate_loss
device = torch.device("meta")            # .cuda() in train.py, simulated by meta
model = social_stgcnn(n_stgcnn=1, n_txpcnn=5, output_feat=5, seq_len=8, kernel_size=3, pred_seq_len=12).to(device)
optimizer = optim.SGD(model.parameters(), lr=0.01)

def make_item(num_peds):
    obs_traj, pred_traj_gt = torch.randn(1, num_peds, 2, 8), torch.randn(1, num_peds, 2, 12)
    obs_traj_rel, pred_traj_gt_rel = torch.randn(1, num_peds, 2, 8), torch.randn(1, num_peds, 2, 12)
    non_linear_ped, loss_mask = torch.zeros(1, num_peds), torch.ones(1, num_peds, 20)
    V_obs, A_obs = torch.randn(1, 8, num_peds, 2), torch.rand(1, 8, num_peds, num_peds)
    V_tr, A_tr = torch.randn(1, 12, num_peds, 2), torch.rand(1, 12, num_peds, num_peds)
    return [obs_traj, pred_traj_gt, obs_traj_rel, pred_traj_gt_rel, non_linear_ped, loss_mask, V_obs, A_obs, V_tr, A_tr]

loader_train = [make_item(3), make_item(5)]      # DataLoader(dset_train, batch_size=1): CPU tensors
'''
CELL = '''
model.train()
optimizer.zero_grad()
is_fst_loss = True
for cnt, batch in enumerate(loader_train):
    batch = [tensor.to(device) for tensor in batch]
    obs_traj, pred_traj_gt, obs_traj_rel, pred_traj_gt_rel, non_linear_ped,\\
     loss_mask, V_obs, A_obs, V_tr, A_tr = batch
    V_obs_tmp = V_obs.permute(0, 3, 1, 2)
    V_pred, _ = model(V_obs_tmp, A_obs.squeeze())
    V_pred = V_pred.permute(0, 2, 3, 1)
    V_tr = V_tr.squeeze()
    A_tr = A_tr.squeeze()
    V_pred = V_pred.squeeze()
    l = graph_loss(V_pred, V_tr)
    if is_fst_loss:
        loss = l
        is_fst_loss = False
    else:
        loss += l
loss = loss / len(loader_train)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
