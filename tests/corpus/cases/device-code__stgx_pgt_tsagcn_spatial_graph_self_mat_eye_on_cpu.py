"""PyTorch Geometric Temporal's AAGCN builds its spatial graph by stacking `torch.eye(num_nodes)` (CPU) with adjacency matrices made from a GPU `edge_index`.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/pull/253
"Fix `test_tsagcn`" (for issue #186, "TSAGCN test failed on GPU"): once `edge_index` is sent to the
GPU, `GraphAAGCN.get_spatial_graph` still creates `self_mat = torch.eye(num_nodes)` on the CPU and
`torch.stack((self_mat, inward_mat_norm, outward_mat_norm))` mixes cpu and cuda:0 while the AAGCN
layer is constructed. The PR changes it to `torch.eye(num_nodes, device=self.edge_index.device)`.
Stand-in: GraphAAGCN with `to_dense_adj` written as a product of one-hot incidence matrices, and an
AAGCN reduced to the non-adaptive graph convolution over the stacked subsets.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def to_dense_adj(edge_index, num_nodes):
    nodes = torch.arange(num_nodes, device=edge_index.device)
    src = (edge_index[0].unsqueeze(1) == nodes).float()
    dst = (edge_index[1].unsqueeze(1) == nodes).float()
    return src.t() @ dst

class GraphAAGCN:
    def __init__(self, edge_index, num_nodes):
        self.num_nodes = num_nodes
        self.edge_index = edge_index
        self.A = self.get_spatial_graph(self.num_nodes)

    def get_spatial_graph(self, num_nodes):
        self_mat = torch.eye(num_nodes)
        inward_mat = torch.squeeze(to_dense_adj(self.edge_index, num_nodes))
        inward_mat_norm = F.normalize(inward_mat, dim=0, p=1)
        outward_mat = inward_mat.transpose(0, 1)
        outward_mat_norm = F.normalize(outward_mat, dim=0, p=1)
        adj_mat = torch.stack((self_mat, inward_mat_norm, outward_mat_norm))
        return adj_mat

class AAGCN(nn.Module):
    def __init__(self, in_channels, out_channels, edge_index, num_nodes):
        super().__init__()
        self.graph = GraphAAGCN(edge_index, num_nodes)
        A = self.graph.A
        self.A = A
        self.conv_d = nn.ModuleList([nn.Conv2d(in_channels, out_channels, 1) for _ in range(A.shape[0])])

    def forward(self, x):
        N, C, T, V = x.size()
        y = None
        for i in range(self.A.shape[0]):
            A2 = x.view(N, C * T, V)
            z = self.conv_d[i](torch.matmul(A2, self.A[i]).view(N, C, T, V))
            y = z + y if y is not None else z
        return F.relu(y)

device = torch.device("cuda:0")
batch_size, in_channels, out_channels = 2, 3, 8
sequence_length, num_nodes = 10, 25
src = torch.arange(num_nodes - 1)
edge_index = torch.stack([src, src + 1]).to(device)
x = torch.randn(batch_size, in_channels, sequence_length, num_nodes).to(device)
'''
CELL = '''
with torch.no_grad():
    layer = AAGCN(in_channels, out_channels, edge_index, num_nodes).to(device)
    y = layer(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["self_mat"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self_mat = torch.eye(num_nodes)",
    "self_mat = torch.eye(num_nodes, device=self.edge_index.device)",
)
CLEAN = False
