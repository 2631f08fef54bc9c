"""pytorch_structure2vec graph classification with `mode=gpu`: the one-hot `scatter_` runs on the CUDA `node_feat` with a CPU index of node tags.

Source: https://github.com/Hanjun-Dai/pytorch_structure2vec/issues/5
"graph_classification/main.py fails when options mode="gpu" is provided ... it incorrectly calls
scatter method with torch.FloatTensor"; the user's patch reworks `Classifier.PrepareFeatureLabel`
around `node_feat = torch.zeros(n_nodes, cmd_args.feat_dim)` / `if cmd_args.mode == 'gpu':
node_feat = node_feat.cuda()`. The tags index `concat_feat = torch.LongTensor(concat_feat)` is
built on the CPU inside the method, while `node_feat` has already been moved to the GPU, so
`node_feat.scatter_(1, concat_feat, 1)` mixes devices (today: "Expected all tensors to be on the
same device ... argument index in method wrapper_CUDA_scatter__value"). The repository's code now
one-hot encodes on the CPU first and moves `node_feat`/`labels` afterwards. Stand-ins: `cmd_args`,
the graph objects (`label`, `num_nodes`, `node_tags`), `EmbedMeanField` reduced to a node MLP +
per-graph sum pooling and `MLPClassifier` (logits, nll loss, accuracy).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import sys
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F

cmd_args = SimpleNamespace(mode="gpu", gm="mean_field", feat_dim=8, latent_dim=32, out_dim=0,
                           hidden=64, num_class=2, max_lv=3, batch_size=4)

class S2VGraph:
    def __init__(self, label, node_tags):
        self.label = label
        self.node_tags = node_tags
        self.num_nodes = len(node_tags)

class EmbedMeanField(nn.Module):
    """Stand-in for s2v_lib EmbedMeanField: node MLP + per-graph sum pooling."""
    def __init__(self, latent_dim, output_dim, num_node_feats, num_edge_feats, max_lv=3):
        super().__init__()
        self.w_n2l = nn.Linear(num_node_feats, latent_dim)
        self.conv_params = nn.Linear(latent_dim, latent_dim)

    def forward(self, graph_list, node_feat, edge_feat):
        h = F.relu(self.w_n2l(node_feat))
        h = F.relu(self.conv_params(h))
        graph_ids = torch.cat([torch.full((g.num_nodes,), i, dtype=torch.long)
                               for i, g in enumerate(graph_list)]).to(node_feat.device)
        out = torch.zeros(len(graph_list), h.size(1), device=h.device)
        return out.index_add_(0, graph_ids, h)

class MLPClassifier(nn.Module):
    def __init__(self, input_size, hidden_size, num_class):
        super().__init__()
        self.h1_weights = nn.Linear(input_size, hidden_size)
        self.h2_weights = nn.Linear(hidden_size, num_class)

    def forward(self, x, y=None):
        logits = F.log_softmax(self.h2_weights(F.relu(self.h1_weights(x))), dim=1)
        loss = F.nll_loss(logits, y)
        acc = logits.argmax(1).eq(y).float().mean()
        return logits, loss, acc

class Classifier(nn.Module):
    def __init__(self):
        super(Classifier, self).__init__()
        if cmd_args.gm == 'mean_field':
            model = EmbedMeanField
        else:
            print('unknown gm %s' % cmd_args.gm)
            sys.exit()

        self.s2v = model(latent_dim=cmd_args.latent_dim,
                        output_dim=cmd_args.out_dim,
                        num_node_feats=cmd_args.feat_dim,
                        num_edge_feats=0,
                        max_lv=cmd_args.max_lv)
        out_dim = cmd_args.out_dim
        if out_dim == 0:
            out_dim = cmd_args.latent_dim
        self.mlp = MLPClassifier(input_size=out_dim, hidden_size=cmd_args.hidden, num_class=cmd_args.num_class)

    def PrepareFeatureLabel(self, batch_graph):
        labels = torch.LongTensor([g.label for g in batch_graph])
        n_nodes = 0
        concat_feat = []
        for i in range(len(batch_graph)):
            n_nodes += batch_graph[i].num_nodes
            concat_feat += batch_graph[i].node_tags

        concat_feat = torch.LongTensor(concat_feat).view(-1, 1)
        node_feat = torch.zeros(n_nodes, cmd_args.feat_dim)
        if cmd_args.mode == 'gpu':
            node_feat = node_feat.to("cuda:0")          # .cuda()
            labels = labels.to("cuda:0")
        node_feat.scatter_(1, concat_feat, 1)

        return node_feat, labels

    def forward(self, batch_graph):
        node_feat, labels = self.PrepareFeatureLabel(batch_graph)
        embed = self.s2v(batch_graph, node_feat, None)

        return self.mlp(embed, labels)

train_graphs = [S2VGraph(i % 2, [(3 * i + k) % cmd_args.feat_dim for k in range(5 + i)])
                for i in range(8)]
classifier = Classifier()
if cmd_args.mode == 'gpu':
    classifier = classifier.to("cuda:0")
'''
CELL = '''
batch_graph = [train_graphs[idx] for idx in [0, 1, 2, 3]]
_, loss, acc = classifier(batch_graph)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["classifier"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        node_feat = torch.zeros(n_nodes, cmd_args.feat_dim)
        if cmd_args.mode == 'gpu':
            node_feat = node_feat.to("cuda:0")          # .cuda()
            labels = labels.to("cuda:0")
        node_feat.scatter_(1, concat_feat, 1)
""", """        node_feat = torch.zeros(n_nodes, cmd_args.feat_dim)
        node_feat.scatter_(1, concat_feat, 1)

        if cmd_args.mode == 'gpu':
            node_feat = node_feat.to("cuda:0")          # .cuda()
            labels = labels.to("cuda:0")
""")
CLEAN = False
