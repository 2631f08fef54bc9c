"""GRAN graph-generation collate: long edge indices shifted in place by a float64 offset.

Source: https://github.com/lrjconan/GRAN/issues/4
`edges[ii] += cum_size[ii]` in `gran_data.py` raised "result type Float can't be cast to the desired
output type Long": the edge tensors are int64 but `cum_size` (the running node offsets of the graphs
in the batch) came out as a float64 NumPy array, and an in-place add cannot store the float result
in a long tensor. The workaround in the thread: `edges[ii] = edges[ii] + cum_size[ii]` and cast the
edges back with `.long()`. Stand-in: the collate step that concatenates the per-graph edge lists.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import numpy as np
import torch

def make_graph(n):
    adj = np.triu(np.random.rand(n, n) < 0.3, 1)
    return {"num_nodes_gt": float(n), "edges": np.stack(np.nonzero(adj), axis=1)}

def collate_fn(batch):
    cum_size = np.cumsum([0] + [bb["num_nodes_gt"] for bb in batch])   # float64
    edges = [torch.from_numpy(bb["edges"]).long() for bb in batch]
    for ii in range(len(edges)):
        edges[ii] += cum_size[ii]
    return {"edges": torch.cat(edges, dim=0), "num_nodes": int(cum_size[-1])}

np.random.seed(0)
batch = [make_graph(n) for n in (12, 9, 15)]
'''
CELL = '''
data = collate_fn(batch)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["cum_size"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        edges[ii] += cum_size[ii]",
                  "        edges[ii] = (edges[ii] + cum_size[ii]).long()")
CLEAN = False
