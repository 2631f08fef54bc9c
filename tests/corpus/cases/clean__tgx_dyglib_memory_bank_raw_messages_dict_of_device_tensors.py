"""Look-alike: DyGLib's MemoryBank keeps raw messages in a plain `defaultdict(list)` of tensors that `Module.to()` never sees; they are made on the device at each batch and the dict is reset every epoch.

Source: https://github.com/yule-BUAA/DyGLib/blob/master/models/MemoryModel.py
`MemoryBank` holds `node_memories` / `node_last_updated_times` as `nn.Parameter(requires_grad=False)`
(moved by `.to()`) and `node_raw_messages = defaultdict(list)`, emptied by `__init_memory_bank__()`
at the start of every epoch. `compute_new_node_raw_messages` builds the messages from device tensors
(`torch.from_numpy(node_interact_times).float().to(self.device) - node_last_updated_times[torch.from_numpy(src_node_ids)]`),
so the dict only ever holds device tensors; `backup_memory_bank()` / `reload_memory_bank()` clone
them between validation and test. Stand-ins: MemoryBank as in the file, and a MemoryModel reduced to
message computation and a last-message GRU memory update. The GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from collections import defaultdict

import numpy as np
import torch
import torch.nn as nn


class TimeEncoder(nn.Module):
    def __init__(self, time_dim):
        super(TimeEncoder, self).__init__()
        self.w = nn.Linear(1, time_dim)
        self.w.weight = nn.Parameter((torch.from_numpy(1 / 10 ** np.linspace(0, 9, time_dim, dtype=np.float32))).reshape(time_dim, -1))
        self.w.bias = nn.Parameter(torch.zeros(time_dim))

    def forward(self, timestamps):
        return torch.cos(self.w(timestamps.unsqueeze(dim=2)))


class MemoryBank(nn.Module):
    def __init__(self, num_nodes, memory_dim):
        super(MemoryBank, self).__init__()
        self.num_nodes = num_nodes
        self.memory_dim = memory_dim
        self.node_memories = nn.Parameter(torch.zeros((self.num_nodes, self.memory_dim)), requires_grad=False)
        self.node_last_updated_times = nn.Parameter(torch.zeros(self.num_nodes), requires_grad=False)
        self.node_raw_messages = defaultdict(list)
        self.__init_memory_bank__()

    def __init_memory_bank__(self):
        self.node_memories.data.zero_()
        self.node_last_updated_times.data.zero_()
        self.node_raw_messages = defaultdict(list)

    def get_memories(self, node_ids):
        return self.node_memories[torch.from_numpy(node_ids)]

    def set_memories(self, node_ids, updated_node_memories):
        self.node_memories[torch.from_numpy(node_ids)] = updated_node_memories

    def backup_memory_bank(self):
        cloned_node_raw_messages = {}
        for node_id, node_raw_messages in self.node_raw_messages.items():
            cloned_node_raw_messages[node_id] = [(node_raw_message[0].clone(), node_raw_message[1].copy()) for node_raw_message in node_raw_messages]
        return self.node_memories.data.clone(), self.node_last_updated_times.data.clone(), cloned_node_raw_messages

    def reload_memory_bank(self, backup_memory_bank):
        self.node_memories.data, self.node_last_updated_times.data = backup_memory_bank[0].clone(), backup_memory_bank[1].clone()
        self.node_raw_messages = defaultdict(list)
        for node_id, node_raw_messages in backup_memory_bank[2].items():
            self.node_raw_messages[node_id] = [(node_raw_message[0].clone(), node_raw_message[1].copy()) for node_raw_message in node_raw_messages]

    def store_node_raw_messages(self, node_ids, new_node_raw_messages):
        for node_id in node_ids:
            self.node_raw_messages[node_id].extend(new_node_raw_messages[node_id])


class MemoryModel(nn.Module):
    def __init__(self, node_raw_features, edge_raw_features, time_feat_dim, device='cpu'):
        super(MemoryModel, self).__init__()
        self.node_raw_features = torch.from_numpy(node_raw_features.astype(np.float32)).to(device)
        self.edge_raw_features = torch.from_numpy(edge_raw_features.astype(np.float32)).to(device)
        self.device = device
        self.memory_dim = self.node_raw_features.shape[1]
        self.memory_bank = MemoryBank(num_nodes=self.node_raw_features.shape[0], memory_dim=self.memory_dim)
        self.time_encoder = TimeEncoder(time_dim=time_feat_dim)
        message_dim = 2 * self.memory_dim + time_feat_dim + self.edge_raw_features.shape[1]
        self.memory_updater = nn.GRUCell(input_size=message_dim, hidden_size=self.memory_dim)

    def compute_new_node_raw_messages(self, src_node_ids, dst_node_ids, node_interact_times, edge_ids):
        src_node_memories = self.memory_bank.get_memories(node_ids=src_node_ids)
        dst_node_memories = self.memory_bank.get_memories(node_ids=dst_node_ids)
        src_node_delta_times = torch.from_numpy(node_interact_times).float().to(self.device) - \\
                               self.memory_bank.node_last_updated_times[torch.from_numpy(src_node_ids)]
        src_node_delta_time_features = self.time_encoder(src_node_delta_times.unsqueeze(dim=1)).reshape(len(src_node_ids), -1)
        edge_features = self.edge_raw_features[torch.from_numpy(edge_ids)]
        new_src_node_raw_messages = torch.cat([src_node_memories, dst_node_memories, src_node_delta_time_features, edge_features], dim=1)
        new_node_raw_messages = defaultdict(list)
        unique_node_ids = np.unique(src_node_ids)
        for i in range(len(src_node_ids)):
            new_node_raw_messages[src_node_ids[i]].append((new_src_node_raw_messages[i], node_interact_times[i]))
        return unique_node_ids, new_node_raw_messages

    def update_memories(self, node_ids):
        # last-message aggregation, then the GRU memory updater
        messages = torch.stack([self.memory_bank.node_raw_messages[node_id][-1][0] for node_id in node_ids])
        updated = self.memory_updater(messages, self.memory_bank.get_memories(node_ids))
        self.memory_bank.set_memories(node_ids, updated)


rng = np.random.default_rng(0)
num_nodes, num_edges = 40, 100
src_node_ids = rng.integers(1, num_nodes, num_edges)
dst_node_ids = rng.integers(1, num_nodes, num_edges)
node_interact_times = np.sort(rng.random(num_edges) * 1000)
edge_ids = np.arange(1, num_edges + 1)

device = 'meta'   # args.device: the GPU, simulated with meta
model = MemoryModel(node_raw_features=rng.random((num_nodes + 1, 16)), edge_raw_features=rng.random((num_edges + 1, 8)),
                    time_feat_dim=16, device=device).to(device)
'''
CELL = '''
with torch.no_grad():
    model.memory_bank.__init_memory_bank__()
    for start in range(0, 60, 20):
        batch = slice(start, start + 20)
        unique_src, new_messages = model.compute_new_node_raw_messages(
            src_node_ids[batch], dst_node_ids[batch], node_interact_times[batch], edge_ids[batch])
        model.memory_bank.store_node_raw_messages(node_ids=unique_src, new_node_raw_messages=new_messages)
        model.update_memories(unique_src)

    # validation changes the memory; back it up and restore it before testing
    val_backup_memory_bank = model.memory_bank.backup_memory_bank()
    unique_src, new_messages = model.compute_new_node_raw_messages(
        src_node_ids[60:80], dst_node_ids[60:80], node_interact_times[60:80], edge_ids[60:80])
    model.memory_bank.store_node_raw_messages(node_ids=unique_src, new_node_raw_messages=new_messages)
    model.update_memories(unique_src)
    model.memory_bank.reload_memory_bank(val_backup_memory_bank)
    memories = model.memory_bank.get_memories(np.unique(dst_node_ids[80:]))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
