"""Trajectron++ `train_loss`: the CPU batch is moved tensor by tensor, `first_history_index` stays on the CPU, neighbour lists are moved at use.

Source: https://github.com/StanfordASL/Trajectron-plus-plus/blob/master/trajectron/model/trajectron.py
`Trajectron.train_loss(batch, node_type)` unpacks the CPU batch from the EnvironmentDataset loader and
moves `x_t`, `y_t`, `x_st_t`, `y_st_t` (and robot/map when present) with `.to(self.device)`, but passes
`first_history_index` on as a CPU tensor: MultimodalGenerativeCVAE (mgcvae.py) uses it to pick each
sequence's last valid step, `outputs[torch.arange(bs), -(first_history_indices + 1)]`, CPU indices into
a GPU tensor. The neighbour states arrive as per-sample lists of CPU tensors and `encode_edge` stacks
each list with `.to(self.device)` (or builds zeros on `self.device`). Look-alike: CPU index tensors
and CPU neighbour lists next to a GPU model, handled where used; it runs.
Stand-ins: one node type with one edge type, "sum" edge combination with dynamic edges, LSTMs run on
the padded sequences (run_lstm_on_variable_length_seqs packs them; packing is not simulated), and a
deterministic decoder with an MSE loss instead of the CVAE/GMM; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def restore(data):
    return data                          # Trajectron++ un-dills the collated neighbour dicts

class MultimodalGenerativeCVAE(nn.Module):
    def __init__(self, node_type, edge_types, hyperparams, device, state_dim=6, pred_dim=2, enc_dim=32):
        super().__init__()
        self.node_type, self.edge_types, self.hyperparams, self.device = node_type, edge_types, hyperparams, device
        self.node_modules = nn.ModuleDict()
        self.node_modules[node_type + "/node_history_encoder"] = nn.LSTM(state_dim, enc_dim, batch_first=True)
        for edge_type in edge_types:
            self.node_modules["->".join(edge_type) + "/edge_encoder"] = nn.LSTM(2 * state_dim, enc_dim, batch_first=True)
        self.node_modules[node_type + "/decoder"] = nn.Linear(2 * enc_dim, hyperparams["prediction_horizon"] * pred_dim)
        self.pred_dim = pred_dim
        self.to(device)

    def encode_node_history(self, node_hist, first_history_indices):
        outputs, _ = self.node_modules[self.node_type + "/node_history_encoder"](node_hist)
        last_index_per_sequence = -(first_history_indices + 1)
        return outputs[torch.arange(first_history_indices.shape[0]), last_index_per_sequence]

    def encode_edge(self, node_history_st, edge_type, neighbors, neighbors_edge_value, first_history_indices):
        max_hl = self.hyperparams["maximum_history_length"]
        edge_states_list = list()
        for i, neighbor_states in enumerate(neighbors):
            if len(neighbor_states) == 0:
                edge_states_list.append(torch.zeros((1, max_hl + 1, node_history_st.shape[-1]), device=self.device))
            else:
                edge_states_list.append(torch.stack(neighbor_states, dim=0).to(self.device))
        combined_neighbors = torch.stack([torch.sum(s, dim=0) for s in edge_states_list], dim=0)
        combined_edge_masks = torch.stack([torch.clamp(torch.sum(edge_value.to(self.device), dim=0, keepdim=True), max=1.)
                                           for edge_value in neighbors_edge_value], dim=0)
        joint_history = torch.cat([combined_neighbors, node_history_st], dim=-1)
        outputs, _ = self.node_modules["->".join(edge_type) + "/edge_encoder"](joint_history)
        last_index_per_sequence = -(first_history_indices + 1)
        ret = outputs[torch.arange(last_index_per_sequence.shape[0]), last_index_per_sequence]
        return ret * combined_edge_masks

    def train_loss(self, inputs, inputs_st, first_history_indices, labels, labels_st, neighbors,
                   neighbors_edge_value, robot, map, prediction_horizon):
        node_history_encoded = self.encode_node_history(inputs_st, first_history_indices)
        edge_encoded = sum(self.encode_edge(inputs_st, et, neighbors[et], neighbors_edge_value[et], first_history_indices)
                           for et in self.edge_types)
        x = torch.cat([edge_encoded, node_history_encoded], dim=1)
        y_pred = self.node_modules[self.node_type + "/decoder"](x).view(-1, prediction_horizon, self.pred_dim)
        return F.mse_loss(y_pred, labels_st)

class Trajectron(object):
    def __init__(self, hyperparams, device, edge_types):
        self.hyperparams, self.device = hyperparams, device
        self.ph = hyperparams["prediction_horizon"]
        self.node_models_dict = {"PEDESTRIAN": MultimodalGenerativeCVAE("PEDESTRIAN", edge_types, hyperparams, device)}

    def train_loss(self, batch, node_type):
        (first_history_index,
         x_t, y_t, x_st_t, y_st_t,
         neighbors_data_st,
         neighbors_edge_value,
         robot_traj_st_t,
         map) = batch

        x = x_t.to(self.device)
        y = y_t.to(self.device)
        x_st_t = x_st_t.to(self.device)
        y_st_t = y_st_t.to(self.device)
        if robot_traj_st_t is not None:
            robot_traj_st_t = robot_traj_st_t.to(self.device)
        if type(map) == torch.Tensor:
            map = map.to(self.device)

        model = self.node_models_dict[node_type]
        loss = model.train_loss(inputs=x, inputs_st=x_st_t, first_history_indices=first_history_index,
                                labels=y, labels_st=y_st_t, neighbors=restore(neighbors_data_st),
                                neighbors_edge_value=restore(neighbors_edge_value), robot=robot_traj_st_t,
                                map=map, prediction_horizon=self.ph)
        return loss

hyperparams = {"maximum_history_length": 7, "prediction_horizon": 12}
edge_types = [("PEDESTRIAN", "PEDESTRIAN")]
device = torch.device("meta")               # args.device = 'cuda:0', simulated by meta
trajectron = Trajectron(hyperparams, device, edge_types)

# one collated batch from the CPU DataLoader (EnvironmentDataset -> NodeTypeDataset)
bs, ht = 4, hyperparams["maximum_history_length"] + 1
first_history_index = torch.tensor([0, 3, 1, 5])
x_t, x_st_t = torch.randn(bs, ht, 6), torch.randn(bs, ht, 6)
y_t, y_st_t = torch.randn(bs, 12, 2), torch.randn(bs, 12, 2)
neighbors_data_st = {edge_types[0]: [[torch.randn(ht, 6), torch.randn(ht, 6)], [], [torch.randn(ht, 6)],
                                     [torch.randn(ht, 6)] * 3]}
neighbors_edge_value = {edge_types[0]: [torch.ones(2), torch.zeros(1), torch.ones(1), torch.ones(3)]}
batch = (first_history_index, x_t, y_t, x_st_t, y_st_t, neighbors_data_st, neighbors_edge_value, None, None)
'''
CELL = '''
train_loss = trajectron.train_loss(batch, "PEDESTRIAN")
train_loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
