"""TGB's first PyG wrapper built TemporalData with float64 timestamps; TGN's memory then writes them into its int64 `last_update` buffer.

Source: https://github.com/shenyangHuang/TGB/pull/7
The PR adding `tgb/edgeregression/dataset_pyg.py` (a `TemporalData` wrapper) and a TGN example
reports "RuntimeError: Index put requires the source and destination dtypes match, got Long for the
destination and Double for the source." The wrapper did `t = torch.from_numpy(timestamps)` (float64
from pandas), and TGNMemory's `_update_memory` writes the max message time into its Long
`last_update` buffer. The follow-up commit ("fixed tgn bug, running properly now", 226b902) forces
`t = t.long()` in the wrapper (and `msg = ....float()`, kept here so that only the timestamps are
wrong, as in the PR's report). Stand-in: TemporalData, a slicing TemporalDataLoader and TGNMemory
as in torch_geometric/nn/models/tgn.py (scatter helpers reduced to scatter_reduce / a loop).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import copy
import numpy as np
import torch
from torch.nn import GRUCell, Linear


def scatter_max(src, index, dim_size):
    return src.new_zeros(dim_size).scatter_reduce(0, index, src, reduce='amax', include_self=False)


def scatter_argmax(src, index, dim_size):
    best = {}
    for pos, (node, time) in enumerate(zip(index.tolist(), src.tolist())):
        if node not in best or time >= src[best[node]]:
            best[node] = pos
    out = torch.full((dim_size, ), src.size(0), dtype=torch.long)
    for node, pos in best.items():
        out[node] = pos
    return out


class TemporalData:
    def __init__(self, src, dst, t, msg, y=None):
        self.src, self.dst, self.t, self.msg, self.y = src, dst, t, msg, y

    @property
    def num_nodes(self):
        return int(max(self.src.max(), self.dst.max())) + 1

    @property
    def num_events(self):
        return self.src.size(0)

    def __getitem__(self, idx):
        return TemporalData(self.src[idx], self.dst[idx], self.t[idx], self.msg[idx],
                            None if self.y is None else self.y[idx])


class TemporalDataLoader:
    def __init__(self, data, batch_size=1):
        self.data, self.batch_size = data, batch_size

    def __iter__(self):
        for i in range(0, self.data.num_events, self.batch_size):
            yield self.data[i:i + self.batch_size]


class PyGEdgeRegressDataset:
    def __init__(self, full_data):
        src = torch.from_numpy(full_data["sources"])
        dst = torch.from_numpy(full_data["destinations"])
        t = torch.from_numpy(full_data["timestamps"])
        y = torch.from_numpy(full_data["y"])
        msg = torch.from_numpy(full_data['edge_idxs']).reshape([-1, 1]).float()
        self.data = [TemporalData(src=src, dst=dst, t=t, msg=msg, y=y)]


class TimeEncoder(torch.nn.Module):
    def __init__(self, out_channels):
        super().__init__()
        self.out_channels = out_channels
        self.lin = Linear(1, out_channels)

    def forward(self, t):
        return self.lin(t.view(-1, 1)).cos()


class IdentityMessage(torch.nn.Module):
    def __init__(self, raw_msg_dim, memory_dim, time_dim):
        super().__init__()
        self.out_channels = raw_msg_dim + 2 * memory_dim + time_dim

    def forward(self, z_src, z_dst, raw_msg, t_enc):
        return torch.cat([z_src, z_dst, raw_msg, t_enc], dim=-1)


class LastAggregator(torch.nn.Module):
    def forward(self, msg, index, t, dim_size):
        argmax = scatter_argmax(t, index, dim_size=dim_size)
        out = msg.new_zeros((dim_size, msg.size(-1)))
        mask = argmax < msg.size(0)
        out[mask] = msg[argmax[mask]]
        return out


class TGNMemory(torch.nn.Module):
    def __init__(self, num_nodes, raw_msg_dim, memory_dim, time_dim,
                 message_module, aggregator_module):
        super().__init__()
        self.num_nodes = num_nodes
        self.raw_msg_dim = raw_msg_dim
        self.memory_dim = memory_dim
        self.time_dim = time_dim
        self.msg_s_module = message_module
        self.msg_d_module = copy.deepcopy(message_module)
        self.aggr_module = aggregator_module
        self.time_enc = TimeEncoder(time_dim)
        self.gru = GRUCell(message_module.out_channels, memory_dim)
        self.register_buffer('memory', torch.empty(num_nodes, memory_dim))
        self.register_buffer('last_update', torch.empty(num_nodes, dtype=torch.long))
        self.register_buffer('_assoc', torch.empty(num_nodes, dtype=torch.long))
        self.msg_s_store = {}
        self.msg_d_store = {}
        self.reset_state()

    @property
    def device(self):
        return self.time_enc.lin.weight.device

    def reset_state(self):
        self.memory.zero_()
        self.last_update.zero_()
        self._reset_message_store()

    def detach(self):
        self.memory.detach_()

    def forward(self, n_id):
        if self.training:
            memory, last_update = self._get_updated_memory(n_id)
        else:
            memory, last_update = self.memory[n_id], self.last_update[n_id]
        return memory, last_update

    def update_state(self, src, dst, t, raw_msg):
        n_id = torch.cat([src, dst]).unique()
        if self.training:
            self._update_memory(n_id)
            self._update_msg_store(src, dst, t, raw_msg, self.msg_s_store)
            self._update_msg_store(dst, src, t, raw_msg, self.msg_d_store)
        else:
            self._update_msg_store(src, dst, t, raw_msg, self.msg_s_store)
            self._update_msg_store(dst, src, t, raw_msg, self.msg_d_store)
            self._update_memory(n_id)

    def _reset_message_store(self):
        i = self.memory.new_empty((0, ), device=self.device, dtype=torch.long)
        msg = self.memory.new_empty((0, self.raw_msg_dim), device=self.device)
        self.msg_s_store = {j: (i, i, i, msg) for j in range(self.num_nodes)}
        self.msg_d_store = {j: (i, i, i, msg) for j in range(self.num_nodes)}

    def _update_memory(self, n_id):
        memory, last_update = self._get_updated_memory(n_id)
        self.memory[n_id] = memory
        self.last_update[n_id] = last_update

    def _get_updated_memory(self, n_id):
        self._assoc[n_id] = torch.arange(n_id.size(0), device=n_id.device)
        msg_s, t_s, src_s, dst_s = self._compute_msg(n_id, self.msg_s_store, self.msg_s_module)
        msg_d, t_d, src_d, dst_d = self._compute_msg(n_id, self.msg_d_store, self.msg_d_module)
        idx = torch.cat([src_s, src_d], dim=0)
        msg = torch.cat([msg_s, msg_d], dim=0)
        t = torch.cat([t_s, t_d], dim=0)
        aggr = self.aggr_module(msg, self._assoc[idx], t, n_id.size(0))
        memory = self.gru(aggr, self.memory[n_id])
        dim_size = self.last_update.size(0)
        last_update = scatter_max(t, idx, dim_size)[n_id]
        return memory, last_update

    def _update_msg_store(self, src, dst, t, raw_msg, msg_store):
        n_id, perm = src.sort()
        n_id, count = n_id.unique_consecutive(return_counts=True)
        for i, idx in zip(n_id.tolist(), perm.split(count.tolist())):
            msg_store[i] = (src[idx], dst[idx], t[idx], raw_msg[idx])

    def _compute_msg(self, n_id, msg_store, msg_module):
        data = [msg_store[i] for i in n_id.tolist()]
        src, dst, t, raw_msg = list(zip(*data))
        src = torch.cat(src, dim=0)
        dst = torch.cat(dst, dim=0)
        t = torch.cat(t, dim=0)
        raw_msg = [m for i, m in enumerate(raw_msg) if m.numel() > 0 or i == 0]
        raw_msg = torch.cat(raw_msg, dim=0)
        t_rel = t - self.last_update[src]
        t_enc = self.time_enc(t_rel.to(raw_msg.dtype))
        msg = msg_module(self.memory[src], self.memory[dst], raw_msg, t_enc)
        return msg, t, src, dst


class LinkPredictor(torch.nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        self.lin_src = Linear(in_channels, in_channels)
        self.lin_dst = Linear(in_channels, in_channels)
        self.lin_final = Linear(in_channels, 1)

    def forward(self, z_src, z_dst):
        h = self.lin_src(z_src) + self.lin_dst(z_dst)
        return self.lin_final(h.relu())


rng = np.random.default_rng(0)
num_events = 40
full_data = {
    "sources": rng.integers(0, 12, num_events),
    "destinations": rng.integers(0, 12, num_events),
    "timestamps": np.sort(rng.integers(1986, 2016, num_events)).astype(np.float64),
    "y": rng.random(num_events),
    "edge_idxs": np.arange(num_events),
}

device = torch.device('cpu')
dataset = PyGEdgeRegressDataset(full_data)
data = dataset.data[0]
min_dst_idx, max_dst_idx = int(data.dst.min()), int(data.dst.max())
train_loader = TemporalDataLoader(data, batch_size=20)

memory_dim = time_dim = embedding_dim = 16
memory = TGNMemory(
    data.num_nodes,
    data.msg.size(-1),
    memory_dim,
    time_dim,
    message_module=IdentityMessage(data.msg.size(-1), memory_dim, time_dim),
    aggregator_module=LastAggregator(),
).to(device)
link_pred = LinkPredictor(in_channels=memory_dim).to(device)
optimizer = torch.optim.Adam(set(memory.parameters()) | set(link_pred.parameters()), lr=0.0001)
criterion = torch.nn.BCEWithLogitsLoss()
assoc = torch.empty(data.num_nodes, dtype=torch.long, device=device)
'''
CELL = '''
memory.train()
link_pred.train()
memory.reset_state()
total_loss = 0
for batch in train_loader:
    optimizer.zero_grad()
    src, pos_dst, t, msg = batch.src, batch.dst, batch.t, batch.msg
    neg_dst = torch.randint(min_dst_idx, max_dst_idx + 1, (src.size(0), ),
                            dtype=torch.long, device=device)
    n_id = torch.cat([src, pos_dst, neg_dst]).unique()
    assoc[n_id] = torch.arange(n_id.size(0), device=device)
    z, last_update = memory(n_id)
    pos_out = link_pred(z[assoc[src]], z[assoc[pos_dst]])
    neg_out = link_pred(z[assoc[src]], z[assoc[neg_dst]])
    loss = criterion(pos_out, torch.ones_like(pos_out))
    loss += criterion(neg_out, torch.zeros_like(neg_out))
    memory.update_state(src, pos_dst, t, msg)
    loss.backward()
    optimizer.step()
    memory.detach()
    total_loss += float(loss) * batch.num_events
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["data.t"]
FIX = "namespace"
REFERENCE_FIX = '''
data.t = data.t.long()
'''
REFERENCE_EDIT = None
CLEAN = False
