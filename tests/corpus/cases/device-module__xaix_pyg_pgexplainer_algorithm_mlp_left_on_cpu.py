"""PyG `Explainer(algorithm=PGExplainer(...))` for a GPU graph classifier: the PGExplainer's own MLP stays on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/issues/10024
The user trained a graph-classification GNN on cuda:0, wrapped it in `Explainer(model=model,
algorithm=PGExplainer(epochs=..., lr=0.003), explanation_type="phenomenon", ...)` and ran the
`explainer.algorithm.train(epoch, model, x, edge_index, target=target)` loop, which failed with "Expected all
tensors to be on the same device, but found at least two devices, cpu and cuda:0!". PGExplainer is an
`nn.Module` with a trainable edge-scoring MLP that nobody had moved; the user resolved it with
`explainer.algorithm.to(device)` (same answer a maintainer gave in the earlier PGExplainer report).
Stand-ins: a two-layer message-passing GNN, `get_embeddings`, the `Explainer` holder and PGExplainer's `train`
up to the edge-mask logits (`z[src]` written `index_select`; the loss/optimizer step is left out: no autograd on
the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class GraphConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_rel = nn.Linear(in_channels, out_channels)
        self.lin_root = nn.Linear(in_channels, out_channels, bias=False)
    def forward(self, x, edge_index):
        src, dst = edge_index.unbind(0)
        agg = torch.zeros_like(x).index_add_(0, dst, x.index_select(0, src))
        return self.lin_rel(agg) + self.lin_root(x)

class GNN(nn.Module):
    def __init__(self, in_channels=8, hidden=32, out_channels=2):
        super().__init__()
        self.conv1 = GraphConv(in_channels, hidden)
        self.conv2 = GraphConv(hidden, hidden)
        self.lin = nn.Linear(hidden, out_channels)
    def forward(self, x, edge_index):
        x = self.conv1(x, edge_index).relu()
        x = self.conv2(x, edge_index).relu()
        return self.lin(x.mean(0, keepdim=True))

def get_embeddings(model, *args, **kwargs):
    embeddings = []
    def hook(module, inputs, outputs):
        embeddings.append(outputs)
    hooks = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, GraphConv)]
    try:
        model(*args, **kwargs)
    finally:
        for h in hooks:
            h.remove()
    return embeddings

class PGExplainer(nn.Module):
    def __init__(self, epochs, lr=0.003, hidden=32):
        super().__init__()
        self.epochs = epochs
        self.lr = lr
        self.mlp = nn.Sequential(nn.Linear(2 * hidden, 64), nn.ReLU(), nn.Linear(64, 1))
        self.optimizer = torch.optim.Adam(self.mlp.parameters(), lr=lr)
        self.temp = [5.0, 2.0]

    def _get_temperature(self, epoch):
        return self.temp[0] * pow(self.temp[1] / self.temp[0], epoch / self.epochs)

    def _get_inputs(self, embedding, edge_index, index=None):
        src, dst = edge_index.unbind(0)
        return torch.cat([embedding.index_select(0, src), embedding.index_select(0, dst)], dim=-1)

    def _concrete_sample(self, logits, temperature=1.0):
        bias = 0.0001
        eps = (1 - 2 * bias) * torch.rand_like(logits) + bias
        return (eps.log() - (1 - eps).log() + logits) / temperature

    def train(self, epoch, model, x, edge_index, *, target, index=None):
        z = get_embeddings(model, x, edge_index)[-1]
        self.optimizer.zero_grad()
        temperature = self._get_temperature(epoch)
        inputs = self._get_inputs(z, edge_index, index)
        logits = self.mlp(inputs).view(-1)
        edge_mask = self._concrete_sample(logits, temperature)
        return edge_mask.sigmoid().sum()

class Explainer:
    def __init__(self, model, algorithm, explanation_type, edge_mask_type, model_config):
        self.model = model
        self.algorithm = algorithm
        self.explanation_type = explanation_type
        self.edge_mask_type = edge_mask_type
        self.model_config = model_config

device = torch.device("cuda:0")
model = GNN().to(device)
model.eval()
explainer = Explainer(
    model=model,
    algorithm=PGExplainer(epochs=30, lr=0.003),
    explanation_type="phenomenon",
    edge_mask_type="object",
    model_config=dict(mode="multiclass_classification", task_level="graph", return_type="raw"),
)
x = torch.randn(20, 8, device=device)                       # data.x (loader batch moved with data.to(device))
edge_index = torch.randint(0, 20, (2, 60), device=device)   # data.edge_index
target = torch.tensor([1], device=device)                   # data.y
'''
CELL = '''
for epoch in range(2):
    loss = explainer.algorithm.train(epoch, model, x, edge_index, target=target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["explainer.algorithm"]
FIX = "namespace"
REFERENCE_FIX = '''
explainer.algorithm.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
