"""orb-models on Windows: the graph's `senders`/`receivers` come from numpy as int32 and reach `scatter_add_` in the GNS message passing.

Source: https://github.com/orbital-materials/orb-models/issues/22
"RuntimeError: scatter(): Expected dtype int64 for index": running the README example
(`graph = atomic_system.ase_atoms_to_atom_graphs(atoms)`, `result = orbff.predict(graph)`) failed in
`orb_models/forcefield/gns.py` during the attention-weighted aggregation of edge messages onto the
receiving nodes; other users confirmed it happens on Windows, where numpy's default integer (used for
the neighbour-list indices) is int32, so the index tensors built from it are int32, not int64.
Stand-in: an `AtomGraphs` NamedTuple built from a numpy neighbour list with Windows' int32 default,
and a one-step GNS (edge MLP, attention, scatter-sum onto receivers, node MLP) as `orbff`.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
from typing import NamedTuple
import numpy as np
import torch
import torch.nn as nn

class AtomGraphs(NamedTuple):
    senders: torch.Tensor
    receivers: torch.Tensor
    n_node: torch.Tensor
    n_edge: torch.Tensor
    node_features: dict
    edge_features: dict

def ase_atoms_to_atom_graphs(positions, atomic_numbers, cutoff=3.0):
    d = np.linalg.norm(positions[:, None] - positions[None], axis=-1)
    senders, receivers = np.nonzero((d < cutoff) & (d > 0))
    senders = senders.astype("int32")           # numpy's default integer on Windows
    receivers = receivers.astype("int32")
    vectors = positions[receivers] - positions[senders]
    return AtomGraphs(senders=torch.from_numpy(senders), receivers=torch.from_numpy(receivers),
                      n_node=torch.tensor([len(positions)]), n_edge=torch.tensor([len(senders)]),
                      node_features={"atomic_numbers": torch.from_numpy(atomic_numbers).long(),
                                     "positions": torch.from_numpy(positions).float()},
                      edge_features={"vectors": torch.from_numpy(vectors).float()})

class AttentionInteractionNetwork(nn.Module):
    def __init__(self, latent_dim=32):
        super().__init__()
        self._edge_mlp = nn.Sequential(nn.Linear(3 * latent_dim, latent_dim), nn.SiLU())
        self._receive_attn = nn.Linear(3 * latent_dim, 1)
        self._node_mlp = nn.Sequential(nn.Linear(2 * latent_dim, latent_dim), nn.SiLU())

    def forward(self, nodes, edges, senders, receivers):
        edge_in = torch.cat([edges, nodes[senders], nodes[receivers]], dim=-1)
        new_edges = self._edge_mlp(edge_in)
        receive_attention = torch.sigmoid(self._receive_attn(edge_in))
        msgs = new_edges * receive_attention
        aggr = torch.zeros(nodes.shape[0], msgs.shape[1], dtype=msgs.dtype)
        aggr = aggr.scatter_add_(0, receivers.unsqueeze(-1).expand_as(msgs), msgs)
        return nodes + self._node_mlp(torch.cat([nodes, aggr], dim=-1)), edges + new_edges

class GraphRegressor(nn.Module):
    def __init__(self, latent_dim=32, num_message_passing_steps=2):
        super().__init__()
        self.atom_emb = nn.Embedding(119, latent_dim)
        self.edge_enc = nn.Linear(4, latent_dim)
        self.gnn_stacks = nn.ModuleList(AttentionInteractionNetwork(latent_dim) for _ in range(num_message_passing_steps))
        self.energy_head = nn.Linear(latent_dim, 1)

    def predict(self, graph):
        v = graph.edge_features["vectors"]
        nodes = self.atom_emb(graph.node_features["atomic_numbers"])
        edges = self.edge_enc(torch.cat([v, v.norm(dim=-1, keepdim=True)], dim=-1))
        for gnn in self.gnn_stacks:
            nodes, edges = gnn(nodes, edges, graph.senders, graph.receivers)
        return {"energy": self.energy_head(nodes).sum(0)}

rng = np.random.default_rng(0)
positions = rng.random((8, 3)) * 4.0                       # ase.build.bulk("Cu", "fcc", a=3.58, cubic=True)
atomic_numbers = np.full(8, 29)
orbff = GraphRegressor()
graph = ase_atoms_to_atom_graphs(positions, atomic_numbers)
'''
CELL = '''
result = orbff.predict(graph)
'''
EXPECT_ERROR = ("Expected dtype int64 for index", "expected scalar type Long but found Int")
CULPRITS = ["graph.receivers"]
FIX = "namespace"
REFERENCE_FIX = '''
graph = graph._replace(senders=graph.senders.long(), receivers=graph.receivers.long())
'''
REFERENCE_EDIT = None
CLEAN = False
