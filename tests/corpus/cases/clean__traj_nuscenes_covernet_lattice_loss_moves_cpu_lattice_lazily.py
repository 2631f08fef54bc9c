"""nuScenes prediction CoverNet: `ConstantLatticeLoss` keeps the trajectory lattice as a CPU tensor attribute and moves it to the logits' device on first use.

Source: https://github.com/nutonomy/nuscenes-devkit/blob/master/python-sdk/nuscenes/prediction/models/covernet.py
`ConstantLatticeLoss.__init__` stores `self.lattice = torch.Tensor(lattice)` (the fixed set of
candidate trajectories, loaded from a pickle, on the CPU). `__call__(batch_logits,
batch_ground_truth_trajectory)` starts with "If using GPU, need to copy the lattice to the GPU":
`if self.lattice.device != batch_logits.device: self.lattice = self.lattice.to(batch_logits.device)`,
then for each sample finds the closest lattice trajectory (`mean_pointwise_l2_distance`) and applies
cross-entropy with the label moved to `batch_logits.device`. Look-alike: a loss object holding a CPU
tensor next to a GPU model and GPU targets, moved lazily inside the loss; it runs.
Stand-ins: CoverNet with a small CNN instead of ResNetBackbone; the label is built with
`closest.reshape(1)` instead of `torch.LongTensor([closest])` (which reads the value back to the host);
random lattice and ground truth; the training step stops at the loss (the backward of the CPU-made empty
`batch_losses` leaf cannot be simulated on meta); the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from typing import List
import numpy as np
import torch
from torch import nn
from torch.nn import functional as f

ASV_DIM = 3

class CoverNet(nn.Module):
    def __init__(self, backbone, backbone_feature_dim, num_modes, n_hidden_layers: List[int] = None):
        super().__init__()
        if not n_hidden_layers:
            n_hidden_layers = [4096]
        self.backbone = backbone
        n_hidden_layers = [backbone_feature_dim + ASV_DIM] + n_hidden_layers + [num_modes]
        linear_layers = [nn.Linear(in_dim, out_dim) for in_dim, out_dim in zip(n_hidden_layers[:-1], n_hidden_layers[1:])]
        self.head = nn.ModuleList(linear_layers)

    def forward(self, image_tensor, agent_state_vector):
        backbone_features = self.backbone(image_tensor)
        logits = torch.cat([backbone_features, agent_state_vector], dim=1)
        for linear in self.head:
            logits = linear(logits)
        return logits

def mean_pointwise_l2_distance(lattice, ground_truth):
    stacked_ground_truth = ground_truth.repeat(lattice.shape[0], 1, 1)
    return torch.pow(lattice - stacked_ground_truth, 2).sum(dim=2).sqrt().mean(dim=1).argmin()

class ConstantLatticeLoss:
    def __init__(self, lattice, similarity_function=mean_pointwise_l2_distance):
        self.lattice = torch.Tensor(lattice)
        self.similarity_func = similarity_function

    def __call__(self, batch_logits, batch_ground_truth_trajectory):
        # If using GPU, need to copy the lattice to the GPU if haven't done so already
        # This ensures we only copy it once
        if self.lattice.device != batch_logits.device:
            self.lattice = self.lattice.to(batch_logits.device)

        batch_losses = torch.Tensor().requires_grad_(True).to(batch_logits.device)
        for logit, ground_truth in zip(batch_logits, batch_ground_truth_trajectory):
            closest_lattice_trajectory = self.similarity_func(self.lattice, ground_truth)
            label = closest_lattice_trajectory.reshape(1).to(batch_logits.device)   # torch.LongTensor([closest])
            classification_loss = f.cross_entropy(logit.unsqueeze(0), label)
            batch_losses = torch.cat((batch_losses, classification_loss.unsqueeze(0)), 0)
        return batch_losses.mean()

device = torch.device("meta")                      # 'cuda', simulated by meta
backbone = nn.Sequential(nn.Conv2d(3, 16, 7, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
num_modes, n_timesteps = 64, 12
covernet = CoverNet(backbone, backbone_feature_dim=16, num_modes=num_modes, n_hidden_layers=[128]).to(device)
optimizer = torch.optim.SGD(covernet.parameters(), lr=1e-3)

lattice = np.random.RandomState(0).randn(num_modes, n_timesteps, 2).astype(np.float32)   # pickle.load(...epsilon_8.pkl)
loss_function = ConstantLatticeLoss(lattice)

# one batch (input representation rasters, agent state vectors, future xy), moved like the model
image_tensor = torch.rand(4, 3, 128, 128).to(device)
agent_state_vector = torch.randn(4, ASV_DIM).to(device)
ground_truth = torch.randn(4, 1, n_timesteps, 2).to(device)
'''
CELL = '''
optimizer.zero_grad()
logits = covernet(image_tensor, agent_state_vector)
loss = loss_function(logits, ground_truth)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
