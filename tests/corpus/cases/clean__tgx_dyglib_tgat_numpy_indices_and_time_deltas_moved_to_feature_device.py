"""Look-alike: DyGLib's TGAT keeps raw node/edge features as plain tensor attributes made on `device`, and indexes them with CPU tensors built from numpy ids.

Source: https://github.com/yule-BUAA/DyGLib/blob/master/models/TGAT.py
`TGAT.__init__(..., device)` stores `self.node_raw_features = torch.from_numpy(...).to(device)` (not
buffers); `compute_node_temporal_embeddings` indexes them with `torch.from_numpy(node_ids)` (CPU
indices into a GPU tensor are allowed), makes the zero query times with
`torch.zeros(shape).unsqueeze(1).to(device)` and neighbour time deltas with
`torch.from_numpy(neighbor_delta_times).float().to(device)`; MultiHeadAttention turns the numpy
neighbour ids into a mask with `.to(node_features.device)`. train_link_prediction.py builds the labels
with `torch.ones_like` / `torch.zeros_like` and uses `nn.BCELoss`. Stand-ins: one-layer TGAT,
TimeEncoder, MergeLayer and MultiHeadAttention from models/modules.py, and a numpy
NeighborSampler returning fixed-size recent neighbours. The GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn


class NeighborSampler:
    def __init__(self, src_node_ids, dst_node_ids, node_interact_times, edge_ids, seed=0):
        self.src, self.dst, self.times, self.eids = src_node_ids, dst_node_ids, node_interact_times, edge_ids

    def get_historical_neighbors(self, node_ids, node_interact_times, num_neighbors=20):
        nbr_ids = np.zeros((len(node_ids), num_neighbors), dtype=np.longlong)
        nbr_eids = np.zeros((len(node_ids), num_neighbors), dtype=np.longlong)
        nbr_times = np.zeros((len(node_ids), num_neighbors), dtype=np.float32)
        for i, (node, t) in enumerate(zip(node_ids, node_interact_times)):
            mask = (self.src == node) & (self.times < t)
            ids, eids, times = self.dst[mask][-num_neighbors:], self.eids[mask][-num_neighbors:], self.times[mask][-num_neighbors:]
            if len(ids):
                nbr_ids[i, -len(ids):], nbr_eids[i, -len(ids):], nbr_times[i, -len(ids):] = ids, eids, times
        return nbr_ids, nbr_eids, nbr_times


class TimeEncoder(nn.Module):
    def __init__(self, time_dim, parameter_requires_grad=True):
        super(TimeEncoder, self).__init__()
        self.time_dim = time_dim
        self.w = nn.Linear(1, time_dim)
        self.w.weight = nn.Parameter((torch.from_numpy(1 / 10 ** np.linspace(0, 9, time_dim, dtype=np.float32))).reshape(time_dim, -1))
        self.w.bias = nn.Parameter(torch.zeros(time_dim))

    def forward(self, timestamps):
        timestamps = timestamps.unsqueeze(dim=2)
        return torch.cos(self.w(timestamps))


class MergeLayer(nn.Module):
    def __init__(self, input_dim1, input_dim2, hidden_dim, output_dim):
        super().__init__()
        self.fc1 = nn.Linear(input_dim1 + input_dim2, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, output_dim)
        self.act = nn.ReLU()

    def forward(self, input_1, input_2):
        x = torch.cat([input_1, input_2], dim=1)
        return self.fc2(self.act(self.fc1(x)))


class MultiHeadAttention(nn.Module):
    def __init__(self, node_feat_dim, edge_feat_dim, time_feat_dim, num_heads=2, dropout=0.1):
        super(MultiHeadAttention, self).__init__()
        self.num_heads = num_heads
        self.query_dim = node_feat_dim + time_feat_dim
        self.key_dim = node_feat_dim + edge_feat_dim + time_feat_dim
        self.head_dim = self.query_dim // num_heads
        self.query_projection = nn.Linear(self.query_dim, num_heads * self.head_dim, bias=False)
        self.key_projection = nn.Linear(self.key_dim, num_heads * self.head_dim, bias=False)
        self.value_projection = nn.Linear(self.key_dim, num_heads * self.head_dim, bias=False)
        self.scaling_factor = self.head_dim ** -0.5
        self.layer_norm = nn.LayerNorm(self.query_dim)
        self.residual_fc = nn.Linear(num_heads * self.head_dim, self.query_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, node_features, node_time_features, neighbor_node_features,
                neighbor_node_time_features, neighbor_node_edge_features, neighbor_masks):
        node_features = torch.unsqueeze(node_features, dim=1)
        query = residual = torch.cat([node_features, node_time_features], dim=2)
        query = self.query_projection(query).reshape(query.shape[0], query.shape[1], self.num_heads, self.head_dim)
        key = value = torch.cat([neighbor_node_features, neighbor_node_edge_features, neighbor_node_time_features], dim=2)
        key = self.key_projection(key).reshape(key.shape[0], key.shape[1], self.num_heads, self.head_dim)
        value = self.value_projection(value).reshape(value.shape[0], value.shape[1], self.num_heads, self.head_dim)
        query, key, value = query.permute(0, 2, 1, 3), key.permute(0, 2, 1, 3), value.permute(0, 2, 1, 3)
        attention = torch.einsum('bhld,bhnd->bhln', query, key) * self.scaling_factor
        attention_mask = torch.from_numpy(neighbor_masks).to(node_features.device).unsqueeze(dim=1)
        attention_mask = attention_mask == 0
        attention_mask = torch.stack([attention_mask for _ in range(self.num_heads)], dim=1)
        attention = attention.masked_fill(attention_mask, -1e10)
        attention_scores = self.dropout(torch.softmax(attention, dim=-1))
        attention_output = torch.einsum('bhln,bhnd->bhld', attention_scores, value)
        attention_output = attention_output.permute(0, 2, 1, 3).flatten(start_dim=2)
        output = self.dropout(self.residual_fc(attention_output))
        output = self.layer_norm(output + residual)
        return output.squeeze(dim=1), attention_scores.squeeze(dim=2)


class TGAT(nn.Module):
    def __init__(self, node_raw_features, edge_raw_features, neighbor_sampler,
                 time_feat_dim, num_layers=1, num_heads=2, dropout=0.1, device='cpu'):
        super(TGAT, self).__init__()
        self.node_raw_features = torch.from_numpy(node_raw_features.astype(np.float32)).to(device)
        self.edge_raw_features = torch.from_numpy(edge_raw_features.astype(np.float32)).to(device)
        self.neighbor_sampler = neighbor_sampler
        self.node_feat_dim = self.node_raw_features.shape[1]
        self.edge_feat_dim = self.edge_raw_features.shape[1]
        self.time_feat_dim = time_feat_dim
        self.num_layers = num_layers
        self.time_encoder = TimeEncoder(time_dim=time_feat_dim)
        self.temporal_conv_layers = nn.ModuleList([MultiHeadAttention(self.node_feat_dim, self.edge_feat_dim, self.time_feat_dim,
                                                                      num_heads, dropout) for _ in range(num_layers)])
        self.merge_layers = nn.ModuleList([MergeLayer(self.node_feat_dim + self.time_feat_dim, self.node_feat_dim,
                                                      self.node_feat_dim, self.node_feat_dim) for _ in range(num_layers)])

    def compute_src_dst_node_temporal_embeddings(self, src_node_ids, dst_node_ids, node_interact_times, num_neighbors=20):
        src = self.compute_node_temporal_embeddings(src_node_ids, node_interact_times, self.num_layers, num_neighbors)
        dst = self.compute_node_temporal_embeddings(dst_node_ids, node_interact_times, self.num_layers, num_neighbors)
        return src, dst

    def compute_node_temporal_embeddings(self, node_ids, node_interact_times, current_layer_num, num_neighbors=20):
        device = self.node_raw_features.device
        node_time_features = self.time_encoder(timestamps=torch.zeros(node_interact_times.shape).unsqueeze(dim=1).to(device))
        node_raw_features = self.node_raw_features[torch.from_numpy(node_ids)]
        if current_layer_num == 0:
            return node_raw_features
        node_conv_features = self.compute_node_temporal_embeddings(node_ids, node_interact_times, current_layer_num - 1, num_neighbors)
        neighbor_node_ids, neighbor_edge_ids, neighbor_times = \\
            self.neighbor_sampler.get_historical_neighbors(node_ids=node_ids, node_interact_times=node_interact_times,
                                                           num_neighbors=num_neighbors)
        neighbor_node_conv_features = self.compute_node_temporal_embeddings(neighbor_node_ids.flatten(), neighbor_times.flatten(),
                                                                            current_layer_num - 1, num_neighbors)
        neighbor_node_conv_features = neighbor_node_conv_features.reshape(node_ids.shape[0], num_neighbors, self.node_feat_dim)
        neighbor_delta_times = node_interact_times[:, np.newaxis] - neighbor_times
        neighbor_time_features = self.time_encoder(timestamps=torch.from_numpy(neighbor_delta_times).float().to(device))
        neighbor_edge_features = self.edge_raw_features[torch.from_numpy(neighbor_edge_ids)]
        output, _ = self.temporal_conv_layers[current_layer_num - 1](node_conv_features, node_time_features,
                                                                     neighbor_node_conv_features, neighbor_time_features,
                                                                     neighbor_edge_features, neighbor_node_ids)
        return self.merge_layers[current_layer_num - 1](input_1=output, input_2=node_raw_features)


class NegativeEdgeSampler:
    def __init__(self, src_node_ids, dst_node_ids, seed=0):
        self.unique_dst_node_ids = np.unique(dst_node_ids)
        self.random_state = np.random.RandomState(seed)

    def sample(self, size):
        return None, self.random_state.choice(self.unique_dst_node_ids, size=size)


def convert_to_gpu(*data, device):
    res = [item.to(device) for item in data]
    return tuple(res) if len(res) > 1 else res[0]


rng = np.random.default_rng(0)
num_nodes, num_edges = 30, 200
src_node_ids = rng.integers(1, num_nodes, num_edges)
dst_node_ids = rng.integers(1, num_nodes, num_edges)
node_interact_times = np.sort(rng.random(num_edges) * 1000).astype(np.float64)
edge_ids = np.arange(1, num_edges + 1)
node_raw_features = rng.random((num_nodes + 1, 16))
edge_raw_features = rng.random((num_edges + 1, 8))

torch.__future__.set_swap_module_params_on_conversion(True)   # simulation: .to("meta") keeps Parameter identity, as .to("cuda") does
device = 'meta'   # args.device: the GPU, simulated with meta
train_neighbor_sampler = NeighborSampler(src_node_ids, dst_node_ids, node_interact_times, edge_ids)
train_neg_edge_sampler = NegativeEdgeSampler(src_node_ids=src_node_ids, dst_node_ids=dst_node_ids)
dynamic_backbone = TGAT(node_raw_features=node_raw_features, edge_raw_features=edge_raw_features,
                        neighbor_sampler=train_neighbor_sampler, time_feat_dim=16, num_layers=1, num_heads=2,
                        dropout=0.1, device=device)
link_predictor = MergeLayer(input_dim1=node_raw_features.shape[1], input_dim2=node_raw_features.shape[1],
                            hidden_dim=node_raw_features.shape[1], output_dim=1)
model = nn.Sequential(dynamic_backbone, link_predictor)
optimizer = torch.optim.Adam(params=model.parameters(), lr=0.0001)
model = convert_to_gpu(model, device=device)
loss_func = nn.BCELoss()
num_neighbors = 10
'''
CELL = '''
model.train()
train_data_indices = np.arange(150, 190)
batch_src_node_ids, batch_dst_node_ids, batch_node_interact_times = \\
    src_node_ids[train_data_indices], dst_node_ids[train_data_indices], node_interact_times[train_data_indices]
_, batch_neg_dst_node_ids = train_neg_edge_sampler.sample(size=len(batch_src_node_ids))
batch_neg_src_node_ids = batch_src_node_ids

batch_src_node_embeddings, batch_dst_node_embeddings = \\
    model[0].compute_src_dst_node_temporal_embeddings(src_node_ids=batch_src_node_ids,
                                                      dst_node_ids=batch_dst_node_ids,
                                                      node_interact_times=batch_node_interact_times,
                                                      num_neighbors=num_neighbors)
batch_neg_src_node_embeddings, batch_neg_dst_node_embeddings = \\
    model[0].compute_src_dst_node_temporal_embeddings(src_node_ids=batch_neg_src_node_ids,
                                                      dst_node_ids=batch_neg_dst_node_ids,
                                                      node_interact_times=batch_node_interact_times,
                                                      num_neighbors=num_neighbors)

positive_probabilities = model[1](input_1=batch_src_node_embeddings, input_2=batch_dst_node_embeddings).squeeze(dim=-1).sigmoid()
negative_probabilities = model[1](input_1=batch_neg_src_node_embeddings, input_2=batch_neg_dst_node_embeddings).squeeze(dim=-1).sigmoid()

predicts = torch.cat([positive_probabilities, negative_probabilities], dim=0)
labels = torch.cat([torch.ones_like(positive_probabilities), torch.zeros_like(negative_probabilities)], dim=0)

loss = loss_func(input=predicts, target=labels)
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
