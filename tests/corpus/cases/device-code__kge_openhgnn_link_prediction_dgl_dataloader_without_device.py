"""OpenHGNN link prediction (mini-batch, RGCN) on a GPU: the DGL edge DataLoader is built without `device`, so its blocks stay on the CPU.

Source: https://github.com/BUPT-GAMMA/OpenHGNN/pull/150
The PR "[RGCN] [RHGNN] Fixed code runtime error" "adds the 'device' parameter to the 'dataloader'
object in the 'link_prediction.py' file to fix: RuntimeError: Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu!" (mini-batch link prediction on a GPU).
`LinkPrediction.__init__` creates
`dgl.dataloading.DataLoader(self.train_hg, train_eid_dict, sampler, batch_size=..., shuffle=True)`
while `train_hg` is still on the CPU (it is moved later in `preprocess`, as a new object), so the
loader yields input nodes and message-passing blocks on the CPU; `_mini_train_step` moves only
the positive/negative pair graphs. The fix (commit dfb2e73 in the PR) passes
`device=self.device` to the DataLoader.
Stand-in: a reduced DGL graph/block/edge-prediction sampler/DataLoader (dense block adjacency;
the loader's device defaults to its graph's device, as in DGL), an RGCN-like model and the
trainer flow's `__init__`/`preprocess`/`_mini_train_step` (no backward or `.item()` on the
simulated device; scores gathered with `index_select`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch as th
import torch.nn as nn
import torch.nn.functional as F


class DGLGraph:
    def __init__(self, src, dst, num_nodes):
        self.src, self.dst, self.num_nodes = src, dst, num_nodes

    @property
    def device(self):
        return self.src.device

    def to(self, device):
        return DGLGraph(self.src.to(device), self.dst.to(device), self.num_nodes)

    def edges(self, form="eid"):
        return th.arange(self.src.shape[0])


class Block:
    def __init__(self, adj):
        self.adj = adj                                    # (num_dst, num_src), normalised

    def to(self, device):
        return Block(self.adj.to(device))


class EdgePredictionSampler:
    def __init__(self, num_layers, k=2):
        self.num_layers, self.k = num_layers, k

    def sample(self, g, eids):
        src, dst = g.src.index_select(0, eids), g.dst.index_select(0, eids)
        pos = DGLGraph(src, dst, g.num_nodes)
        neg = DGLGraph(src.repeat(self.k), th.randint(0, g.num_nodes, (self.k * src.shape[0],)), g.num_nodes)
        adj = th.zeros(g.num_nodes, g.num_nodes)
        adj.index_put_((g.dst, g.src), th.ones(g.src.shape[0]), accumulate=True)
        adj = adj / adj.sum(dim=1, keepdim=True).clamp(min=1)
        input_nodes = th.arange(g.num_nodes)              # fanout -1: every node
        return input_nodes, pos, neg, [Block(adj) for _ in range(self.num_layers)]


class DataLoader:
    """dgl.dataloading.DataLoader: outputs go to `device`, which defaults to the graph's device."""

    def __init__(self, graph, indices, graph_sampler, batch_size=1, shuffle=False, device=None):
        self.graph, self.indices, self.graph_sampler = graph, indices, graph_sampler
        self.batch_size = batch_size
        self.device = th.device(device) if device is not None else graph.device

    def __iter__(self):
        for eids in self.indices.split(self.batch_size):
            input_nodes, pos, neg, blocks = self.graph_sampler.sample(self.graph, eids)
            yield input_nodes.to(self.device), pos.to(self.device), neg.to(self.device), [b.to(self.device) for b in blocks]


class InputFeature(nn.Module):
    def __init__(self, num_nodes, dim):
        super().__init__()
        self.embed = nn.Embedding(num_nodes, dim)

    def forward_nodes(self, input_nodes):
        return self.embed(input_nodes)


class RGCN(nn.Module):
    def __init__(self, num_nodes, dim, num_layers):
        super().__init__()
        self.input_feature = InputFeature(num_nodes, dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(num_layers)])
        self.out_dim = dim

    def forward(self, blocks, h):
        for block, layer in zip(blocks, self.layers):
            h = F.relu(layer(th.matmul(block.adj, h)))
        return h


def score_predictor(graph, embedding, r_embedding):
    return (embedding.index_select(0, graph.src) * r_embedding * embedding.index_select(0, graph.dst)).sum(dim=-1)


class LinkPrediction:
    def __init__(self, train_hg, num_layers=2, batch_size=256, device="cuda:0"):
        self.device = th.device(device)
        self.train_hg = train_hg
        self.model = RGCN(train_hg.num_nodes, 64, num_layers).to(self.device)
        self.r_embedding = th.randn(64).to(self.device)
        train_eid_dict = self.train_hg.edges(form='eid')
        sampler = EdgePredictionSampler(num_layers)
        self.dataloader = DataLoader(
            self.train_hg, train_eid_dict, sampler,
            batch_size=batch_size,
            shuffle=True)

    def preprocess(self):
        # to('cpu') & to('self.device')
        self.train_hg = self.train_hg.to(self.device)

    def _mini_train_step(self, ):
        self.model.train()
        losses = []
        for input_nodes, positive_graph, negative_graph, blocks in self.dataloader:
            positive_graph = positive_graph.to(self.device)
            negative_graph = negative_graph.to(self.device)
            input_features = self.model.input_feature.forward_nodes(input_nodes)
            logits = self.model(blocks, input_features)
            losses.append(self.loss_calculation(positive_graph, negative_graph, logits))
        return losses

    def loss_calculation(self, positive_graph, negative_graph, embedding):
        p_score = score_predictor(positive_graph, embedding, self.r_embedding)
        n_score = score_predictor(negative_graph, embedding, self.r_embedding)
        p_label = th.ones(len(p_score), device=self.device)
        n_label = th.zeros(len(n_score), device=self.device)
        return F.binary_cross_entropy_with_logits(th.cat((p_score, n_score)), th.cat((p_label, n_label)))


num_nodes, num_edges = 300, 1024
train_hg = DGLGraph(th.randint(0, num_nodes, (num_edges,)), th.randint(0, num_nodes, (num_edges,)), num_nodes)
flow = LinkPrediction(train_hg, num_layers=2, batch_size=256, device="cuda:0")
flow.preprocess()
'''
CELL = '''
losses = flow._mini_train_step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["flow"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            batch_size=batch_size,
            shuffle=True)""",
    """            batch_size=batch_size,
            shuffle=True, device=self.device)""",
)
CLEAN = False
