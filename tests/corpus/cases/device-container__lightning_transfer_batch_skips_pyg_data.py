"""Lightning's batch transfer moves tensors and lists, and silently returns a PyG `Data` batch as is.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/195
Training a torch_geometric GCN with Lightning on a GPU failed in `GCNConv.forward` at
`torch.matmul(x, self.weight)` ("Expected object of backend CPU but got backend CUDA"). The user traced
it to `transfer_batch_to_gpu`: it handled a plain tensor or a list/tuple/dict of them, but PyG's
`Data` batch only implements `.to()` (no `.cuda()`), so it came back untouched, still on the CPU,
while the model had been moved to the root GPU. The fix made the hook call `.to(device)` on such
objects. Stand-in: a `Data` with `.to()`, Lightning's old hook, a dense-propagation GCN layer.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class Data:                                   # torch_geometric.data.Data: .to(), no .cuda()
    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y

    def to(self, device):
        self.x, self.edge_index, self.y = (t.to(device) for t in (self.x, self.edge_index, self.y))
        return self

def transfer_batch_to_gpu(batch, gpu_id):     # Lightning 0.4.x Trainer
    if callable(getattr(batch, "cuda", None)):
        return batch.cuda(gpu_id)
    elif type(batch) is list:
        return [transfer_batch_to_gpu(x, gpu_id) for x in batch]
    elif type(batch) is tuple:
        return tuple(transfer_batch_to_gpu(x, gpu_id) for x in batch)
    elif type(batch) is dict:
        return {k: transfer_batch_to_gpu(v, gpu_id) for k, v in batch.items()}
    return batch

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_channels, out_channels) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index):
        x = torch.matmul(x, self.weight)
        row, col = edge_index
        nodes = torch.arange(x.size(0), device=x.device)
        src = (row.unsqueeze(1) == nodes).float()              # dense stand-in for propagate()
        dst = (col.unsqueeze(1) == nodes).float()
        deg = dst.sum(0).clamp(min=1).unsqueeze(1)
        return dst.t() @ (src @ x) / deg + self.bias

class GCN(nn.Module):                          # the user's LightningModule
    def __init__(self, num_features=8, hidden=16, num_classes=3):
        super().__init__()
        self.conv1 = GCNConv(num_features, hidden)
        self.conv2 = GCNConv(hidden, num_classes)

    def forward(self, x, edge_index):
        x = F.relu(self.conv1(x, edge_index))
        return F.log_softmax(self.conv2(x, edge_index), dim=1)

    def training_step(self, batch, batch_nb):
        out = self.forward(batch.x, batch.edge_index)
        return {"loss": F.nll_loss(out, batch.y)}

model = GCN().to("cuda:0")                     # the trainer's model.cuda(self.root_gpu)
data = Data(torch.randn(10, 8), torch.randint(0, 10, (2, 20)), torch.randint(0, 3, (10,)))
batch = transfer_batch_to_gpu(data, 0)
'''
CELL = '''
output = model.training_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = batch.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
