"""SMILE single-cell contrastive training on a GPU: the ContrastiveLoss module (with its buffers) stays on the CPU.

Source: https://github.com/rpmccordlab/SMILE/issues/2
"Problem with GPU": running SMILE with the encoder on CUDA failed inside the SimCLR-style
`ContrastiveLoss` the thread quotes. The loss keeps `temperature` and `negatives_mask` as
registered buffers; they only follow the loss module when the module itself is moved, and the
criterion was created with `ContrastiveLoss(batch_size)` and never sent to the GPU, so
`self.negatives_mask * torch.exp(similarity_matrix / self.temperature)` mixes a CPU mask with
cuda similarities. Stand-in: the loss as quoted, a two-layer encoder in place of SMILE's MLP.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ContrastiveLoss(torch.nn.Module):
    def __init__(self, batch_size, temperature=0.5):
        super().__init__()
        self.batch_size = batch_size
        self.register_buffer("temperature", torch.tensor(temperature))
        self.register_buffer("negatives_mask", (~torch.eye(batch_size * 2, batch_size * 2, dtype=bool)).float())

    def forward(self, emb_i, emb_j):
        z_i = F.normalize(emb_i, dim=1, p=2)
        z_j = F.normalize(emb_j, dim=1, p=2)
        representations = torch.cat([z_i, z_j], dim=0)
        similarity_matrix = F.cosine_similarity(representations.unsqueeze(1), representations.unsqueeze(0), dim=2)
        sim_ij = torch.diag(similarity_matrix, self.batch_size)
        sim_ji = torch.diag(similarity_matrix, -self.batch_size)
        positives = torch.cat([sim_ij, sim_ji], dim=0)
        nominator = torch.exp(positives / self.temperature)
        denominator = self.negatives_mask * torch.exp(similarity_matrix / self.temperature)
        loss_partial = -torch.log(nominator / torch.sum(denominator, dim=1))
        loss = torch.sum(loss_partial) / (2 * self.batch_size)
        return loss

batch_size = 16
device = torch.device("cuda:0")
net = nn.Sequential(nn.Linear(2000, 128), nn.ReLU(), nn.Linear(128, 32)).to(device)
criterion = ContrastiveLoss(batch_size)
x_i = torch.randn(batch_size, 2000, device=device)
x_j = x_i + 0.1 * torch.randn(batch_size, 2000, device=device)
'''
CELL = '''
z_i, z_j = net(x_i), net(x_j)
loss = criterion(z_i, z_j)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion = criterion.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
