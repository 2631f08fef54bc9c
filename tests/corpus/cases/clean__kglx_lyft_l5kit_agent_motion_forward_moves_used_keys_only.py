"""Look-alike: Lyft motion prediction baseline (l5kit `agent_motion_prediction`) moves only `image`, `target_availabilities` and `target_positions` of the batch dict to the GPU; the rest stays on the CPU on purpose.

Source: https://github.com/woven-planet/l5kit/blob/f554545ecb6249616c58dc469ae9b9cf69c24c13/examples/agent_motion_prediction/agent_motion_prediction.ipynb
The baseline notebook of the Kaggle "Lyft Motion Prediction for Autonomous Vehicles" competition
trains a ResNet-50 whose input has 3 + 2*(history+1) raster channels. Its
`forward(data, model, device, criterion)` sends the three tensors the model and the masked
`MSELoss(reduction="none")` need, and the eval loop brings the outputs back with `.cpu()` to be
combined with `world_from_agent` and `centroid`, which never leave the CPU (they feed
`transform_points` and the submission CSV). Stand-in: the ResNet-50 reduced to the replaced
`conv1` + pooling + the replaced `fc`; the `AgentDataset` batch a dict of tensors;
`transform_points` written in torch for the CPU tail.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

cfg = {"model_params": {"history_num_frames": 10, "future_num_frames": 50}}


def build_model(cfg):
    num_history_channels = (cfg["model_params"]["history_num_frames"] + 1) * 2
    num_in_channels = 3 + num_history_channels
    num_targets = 2 * cfg["model_params"]["future_num_frames"]
    # resnet50 with model.conv1 / model.fc replaced, reduced to those two layers
    return nn.Sequential(
        nn.Conv2d(num_in_channels, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False),
        nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(in_features=64, out_features=num_targets),
    )


def forward(data, model, device, criterion):
    inputs = data["image"].to(device)
    target_availabilities = data["target_availabilities"].unsqueeze(-1).to(device)
    targets = data["target_positions"].to(device)
    # Forward pass
    outputs = model(inputs).reshape(targets.shape)
    loss = criterion(outputs, targets)
    # not all the output steps are valid, but we can filter them out from the loss using availabilities
    loss = loss * target_availabilities
    loss = loss.mean()
    return loss, outputs


def transform_points(points, transf_matrix):
    # l5kit.geometry.transform_points for a batch of (N, T, 2) points and (N, 3, 3) matrices
    return points @ transf_matrix[:, :2, :2].transpose(1, 2) + transf_matrix[:, None, :2, 2]


device = torch.device("cuda:0")
model = build_model(cfg).to(device)
criterion = nn.MSELoss(reduction="none")
model.eval()
torch.set_grad_enabled(False)

bs = 4
data = {                                   # one AgentDataset batch from the DataLoader (CPU)
    "image": torch.randn(bs, 25, 64, 64),
    "target_positions": torch.randn(bs, 50, 2),
    "target_availabilities": torch.ones(bs, 50),
    "world_from_agent": torch.eye(3).repeat(bs, 1, 1),
    "centroid": torch.randn(bs, 2),
    "timestamp": torch.arange(bs),
    "track_id": torch.arange(bs),
}
future_coords_offsets_pd = []
'''
CELL = '''
_, ouputs = forward(data, model, device, criterion)

# convert agent coordinates into world offsets
agents_coords = ouputs.cpu()
world_from_agents = data["world_from_agent"]
centroids = data["centroid"]
coords_offset = transform_points(agents_coords, world_from_agents) - centroids[:, None, :2]
future_coords_offsets_pd.append(coords_offset)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
