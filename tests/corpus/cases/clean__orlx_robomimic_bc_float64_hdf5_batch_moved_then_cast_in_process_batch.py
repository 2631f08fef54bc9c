"""Look-alike: robomimic BC training: the data loader's batch is float64 and on the CPU; `process_batch_for_training` moves it to the device and casts it to float.

Source: https://github.com/ARISE-Initiative/robomimic (robomimic/algo/bc.py, BC.process_batch_for_training,
_forward_training and _compute_losses; robomimic/utils/tensor_utils.py, to_device and to_float)
The SequenceDataset reads low-dim observations and actions from the hdf5 file as float64 numpy
arrays and the DataLoader collates them into CPU float64 tensors of shape (B, seq_length, D), while
the policy network lives on the GPU. `BC.process_batch_for_training` keeps the first frame of each
key and returns `TensorUtils.to_float(TensorUtils.to_device(input_batch, self.device))` ("we move
to device first before float conversion because image observation modalities will be uint8"), so
the batch reaches the float32 network on its device. Stand-ins: the ActorNetwork reduced to an MLP
over the concatenated observation keys, the dataset to in-memory float64 arrays, the loader to
`default_collate`; the optimizer step is left out (no autograd on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import default_collate


def recursive_dict_list_tuple_apply(x, type_func_dict):
    if isinstance(x, (dict, OrderedDict)):
        new_x = OrderedDict() if isinstance(x, OrderedDict) else dict()
        for k, v in x.items():
            new_x[k] = recursive_dict_list_tuple_apply(v, type_func_dict)
        return new_x
    if isinstance(x, (list, tuple)):
        ret = [recursive_dict_list_tuple_apply(v, type_func_dict) for v in x]
        return tuple(ret) if isinstance(x, tuple) else ret
    for t, f in type_func_dict.items():
        if isinstance(x, t):
            return f(x)
    raise NotImplementedError("Cannot handle data type %s" % str(type(x)))


class TensorUtils:
    @staticmethod
    def to_device(x, device):
        return recursive_dict_list_tuple_apply(
            x, {torch.Tensor: lambda x, d=device: x.to(d), type(None): lambda x: x})

    @staticmethod
    def to_float(x):
        return recursive_dict_list_tuple_apply(
            x, {torch.Tensor: lambda x: x.float(), np.ndarray: lambda x: x.astype(np.float32),
                type(None): lambda x: x})


def cosine_loss(preds, labels):
    return (1.0 - F.cosine_similarity(preds, labels, dim=-1)).mean()


class ActorNetwork(nn.Module):
    def __init__(self, obs_shapes, ac_dim, mlp_layer_dims=(256, 256)):
        super().__init__()
        self.obs_keys = list(obs_shapes)
        layers, in_dim = [], sum(obs_shapes.values())
        for d in mlp_layer_dims:
            layers += [nn.Linear(in_dim, d), nn.ReLU()]
            in_dim = d
        layers.append(nn.Linear(in_dim, ac_dim))
        self.mlp = nn.Sequential(*layers)

    def forward(self, obs_dict, goal_dict=None):
        x = torch.cat([obs_dict[k] for k in self.obs_keys], dim=-1)
        return torch.tanh(self.mlp(x))


class BC:
    def __init__(self, obs_shapes, ac_dim, device):
        self.device = device
        self.nets = nn.ModuleDict({"policy": ActorNetwork(obs_shapes, ac_dim)})
        self.nets = self.nets.float().to(self.device)
        self.optimizers = {"policy": torch.optim.Adam(self.nets["policy"].parameters(), lr=1e-4)}

    def process_batch_for_training(self, batch):
        input_batch = dict()
        input_batch["obs"] = {k: batch["obs"][k][:, 0, :] for k in batch["obs"]}
        input_batch["goal_obs"] = batch.get("goal_obs", None)  # goals may not be present
        input_batch["actions"] = batch["actions"][:, 0, :]
        # we move to device first before float conversion because image observation modalities will be uint8 -
        # this minimizes the amount of data transferred to GPU
        return TensorUtils.to_float(TensorUtils.to_device(input_batch, self.device))

    def _forward_training(self, batch):
        predictions = OrderedDict()
        predictions["actions"] = self.nets["policy"](obs_dict=batch["obs"], goal_dict=batch["goal_obs"])
        return predictions

    def _compute_losses(self, predictions, batch):
        losses = OrderedDict()
        a_target = batch["actions"]
        actions = predictions["actions"]
        losses["l2_loss"] = nn.MSELoss()(actions, a_target)
        losses["l1_loss"] = nn.SmoothL1Loss()(actions, a_target)
        losses["cos_loss"] = cosine_loss(actions[..., :3], a_target[..., :3])
        losses["action_loss"] = 1.0 * losses["l2_loss"] + 0.0 * losses["l1_loss"] + 0.0 * losses["cos_loss"]
        return losses

    def train_on_batch(self, batch, epoch, validate=False):
        info = OrderedDict()
        predictions = self._forward_training(batch)
        losses = self._compute_losses(predictions, batch)
        info["predictions"] = predictions
        info["losses"] = losses
        # if not validate: self._train_step(losses)   (backward + optimizer step)
        return info


class SequenceDataset:                                  # hdf5 arrays held in memory
    def __init__(self, n, obs_shapes, ac_dim, seq_length=1):
        rng = np.random.default_rng(0)
        self.obs = {k: rng.standard_normal((n, d)) for k, d in obs_shapes.items()}   # float64
        self.actions = rng.uniform(-1, 1, (n, ac_dim))                             # float64
        self.seq_length = seq_length

    def __len__(self):
        return len(self.actions) - self.seq_length

    def __getitem__(self, i):
        sl = slice(i, i + self.seq_length)
        return {"obs": {k: v[sl] for k, v in self.obs.items()}, "actions": self.actions[sl]}


obs_shapes = OrderedDict(robot0_eef_pos=3, robot0_eef_quat=4, robot0_gripper_qpos=2, object=10)
trainset = SequenceDataset(500, obs_shapes, ac_dim=7)
device = torch.device("cuda:0")
model = BC(obs_shapes, ac_dim=7, device=device)
'''
CELL = '''
batch = default_collate([trainset[i] for i in range(100)])
input_batch = model.process_batch_for_training(batch)
info = model.train_on_batch(input_batch, epoch=1, validate=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
