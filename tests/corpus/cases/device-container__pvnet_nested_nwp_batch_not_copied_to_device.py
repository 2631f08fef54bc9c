"""PVNet: `copy_batch_to_device` moves the top-level tensors of the batch but not the nested NWP dict.

Source: https://github.com/openclimatefix/pvnet/pull/112
"fix batch to tensor and to device for nested NWP": with ocf_datapipes >= 2.5 the NumpyBatch keeps the
NWP inputs in a nested dict per provider (`batch[BatchKey.nwp]["ukv"][NWPBatchKey.nwp]`), and
`copy_batch_to_device` / `batch_to_tensor` only handled the first level, so the satellite and GSP
tensors reached the GPU while the NWP cube stayed on the CPU. The PR makes both functions recurse.
Stand-ins: string keys for the BatchKey enums, a small late-fusion model with an NWP 3D-conv encoder.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import numpy as np
import torch
from torch import nn

def batch_to_tensor(batch):
    """pvnet.utils.batch_to_tensor before the fix: nested dicts are converted one level down only."""
    for k, v in batch.items():
        if isinstance(v, np.ndarray) and np.issubdtype(v.dtype, np.number):
            batch[k] = torch.as_tensor(v)
        elif isinstance(v, dict):
            for k2, v2 in v.items():
                batch[k][k2] = {k3: torch.as_tensor(v3) for k3, v3 in v2.items()}
    return batch

def copy_batch_to_device(batch, device):
    """pvnet.utils.copy_batch_to_device before the fix: only top-level tensors are moved."""
    batch_copy = {}
    for k, v in batch.items():
        if isinstance(v, torch.Tensor):
            batch_copy[k] = v.to(device)
        else:
            batch_copy[k] = v
    return batch_copy

class NWPEncoder(nn.Module):
    def __init__(self, in_channels=2, out_features=16):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, 8, kernel_size=3, padding=1)
        self.fc = nn.Linear(8, out_features)

    def forward(self, x):                      # x: [batch, time, channel, y, x]
        h = torch.relu(self.conv(x.permute(0, 2, 1, 3, 4)))
        return self.fc(h.mean(dim=(2, 3, 4)))

class LateFusionModel(nn.Module):
    def __init__(self, forecast_len=4):
        super().__init__()
        self.nwp_encoders_dict = nn.ModuleDict({"ukv": NWPEncoder()})
        self.sat_encoder = nn.Linear(6 * 4 * 4, 16)
        self.output_network = nn.Linear(32 + 3, forecast_len)

    def forward(self, x):
        nwp = self.nwp_encoders_dict["ukv"](x["nwp"]["ukv"]["nwp"])
        sat = self.sat_encoder(x["satellite_actual"].flatten(1))
        return self.output_network(torch.cat([nwp, sat, x["gsp"]], dim=1))

device = torch.device("cuda:0")
model = LateFusionModel().to(device)
numpy_batch = {
    "nwp": {"ukv": {"nwp": np.random.rand(2, 3, 2, 8, 8).astype(np.float32),
                    "nwp_init_time_utc": np.zeros(2, dtype=np.int64)}},
    "satellite_actual": np.random.rand(2, 6, 4, 4).astype(np.float32),
    "gsp": np.random.rand(2, 3).astype(np.float32),
}
batch = copy_batch_to_device(batch_to_tensor(numpy_batch), device)
'''
CELL = '''
y_hat = model(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch['nwp']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["nwp"] = {src: {k: v.to(device) for k, v in d.items()} for src, d in batch["nwp"].items()}
'''
REFERENCE_EDIT = None
CLEAN = False
