"""PyG TGNMemory moved with `.to(device)` fails in `.eval()`: its message store is a dict of tensors that `Module.to()` never sees.

Source: https://github.com/pyg-team/pytorch_geometric/issues/8926
`tgn_memory = TGNMemory(...)`, `tgn_memory.to('cuda:0')`, `tgn_memory.eval()` raised "Expected all
tensors to be on the same device": `train(False)` flushes the message store into memory
(`_update_memory(torch.arange(num_nodes, device=memory.device))`), but `msg_s_store`/`msg_d_store`
are plain dicts of (src, dst, t, msg) tensors built on the CPU at construction, which `.to()` leaves
behind. PR #8933 fixed `_compute_msg` to move what it reads from the store to `self.device`.
Stand-in: TGNMemory as in torch_geometric/nn/models/tgn.py before that fix (buffers, dict message
stores, IdentityMessage, TimeEncoder, GRUCell); LastAggregator's scatter_argmax is reduced to an
index_add, and `_compute_msg` reads the store for `n_id` by position (a meta tensor cannot be
listed; here n_id is arange(num_nodes)). The GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import copy
import torch
from torch import Tensor
from torch.nn import GRUCell, Linear


def scatter_max(src, index, dim_size):
    return src.new_zeros(dim_size).scatter_reduce(0, index, src, reduce='amax', include_self=False)


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
        out = msg.new_zeros((dim_size, msg.size(-1)))
        return out.index_add(0, index, msg)


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
        self.register_buffer('memory', torch.zeros(num_nodes, memory_dim))
        self.register_buffer('last_update', torch.zeros(num_nodes, dtype=torch.long))
        self.register_buffer('_assoc', torch.zeros(num_nodes, dtype=torch.long))
        self.msg_s_store = {}
        self.msg_d_store = {}
        self._reset_message_store()

    @property
    def device(self):
        return self.time_enc.lin.weight.device

    def _reset_message_store(self):
        i = self.memory.new_empty((0, ), device=self.device, dtype=torch.long)
        msg = self.memory.new_empty((0, self.raw_msg_dim), device=self.device)
        # Message store format: (src, dst, t, msg)
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

    def _compute_msg(self, n_id, msg_store, msg_module):
        data = [msg_store[i] for i in range(n_id.size(0))]
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

    def train(self, mode=True):
        if self.training and not mode:
            # Flush message store to memory in case we just entered eval mode.
            self._update_memory(torch.arange(self.num_nodes, device=self.memory.device))
            self._reset_message_store()
        super().train(mode)
        return self


tgn_memory = TGNMemory(
    num_nodes=10,
    raw_msg_dim=10,
    memory_dim=10,
    time_dim=10,
    message_module=IdentityMessage(10, 10, 10),
    aggregator_module=LastAggregator(),
)
tgn_memory.to('meta')   # the user's 'cuda:0', simulated with meta
'''
CELL = '''
tgn_memory.eval()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["tgn_memory"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        src = torch.cat(src, dim=0)
        dst = torch.cat(dst, dim=0)
        t = torch.cat(t, dim=0)
        raw_msg = [m for i, m in enumerate(raw_msg) if m.numel() > 0 or i == 0]
        raw_msg = torch.cat(raw_msg, dim=0)
""",
    """        src = torch.cat(src, dim=0).to(self.device)
        dst = torch.cat(dst, dim=0).to(self.device)
        t = torch.cat(t, dim=0).to(self.device)
        raw_msg = [m for i, m in enumerate(raw_msg) if m.numel() > 0 or i == 0]
        raw_msg = torch.cat(raw_msg, dim=0).to(self.device)
""",
)
CLEAN = False
