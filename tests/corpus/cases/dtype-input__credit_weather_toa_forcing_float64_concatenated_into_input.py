"""NCAR CREDIT (ERA5 weather model) training: the top-of-atmosphere solar forcing comes out of the TOADataLoader as float64, and concatenating it into the float32 state promotes the model input to double.

Source: https://github.com/NCAR/miles-credit/pull/51
"TOA data type conversion": "TOA original data is saved in float64/double; this commit converts it to
float32 required in Pytorch training." `TOADataLoader.__call__` returned
`torch.tensor(selected_tsi.to_numpy()).unsqueeze(0)` from the xarray TSI field (float64); the trainer
does `x = torch.cat([x, toa.unsqueeze(1)], dim=1)`, which promotes the whole input to float64 before
`self.model(x)`. The fix appends `.float()` in the loader. Stand-ins: the xarray forcing by a numpy
array, the ERA5 dataset and Trainer reduced to one step, a small 3D conv model for the CrossFormer.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class TOADataLoader:
    def __init__(self, conf):
        rng = np.random.default_rng(0)
        self.tsi = rng.random((24, 16, 32)) * 2540585.74        # xr.open_dataset(TOA_forcing_path)['tsi'], float64

    def __call__(self, hour):
        selected_tsi = self.tsi[hour] / 2540585.74
        # Convert to tensor and add dimension
        return torch.tensor(selected_tsi).unsqueeze(0)

class ERA5Dataset:
    def __init__(self, conf):
        self.toaDL = TOADataLoader(conf)

    def __getitem__(self, i):
        return {"x": torch.randn(1, 4, 2, 16, 32),             # levels x variables, float32
                "x_surf": torch.randn(1, 3, 2, 16, 32),
                "TOA": torch.stack([self.toaDL(h) for h in (i, i + 1)], dim=1).squeeze(0).unsqueeze(0),
                "y": torch.randn(1, 7, 1, 16, 32)}

class CrossFormer(nn.Module):
    def __init__(self, channels=8, out_channels=7):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(channels, 16, (2, 3, 3), padding=(0, 1, 1)), nn.GELU(),
                                 nn.Conv3d(16, out_channels, 1))

    def concat_and_reshape(self, x1, x2):
        return torch.cat([x1, x2], dim=1)

    def forward(self, x):
        return self.net(x)

class Trainer:
    def __init__(self, model, device):
        self.model, self.device = model, device

    def train_one_epoch(self, dataset, optimizer, criterion, steps=1):
        self.model.train()
        for i in range(steps):
            batch = dataset[i]
            x = self.model.concat_and_reshape(batch["x"], batch["x_surf"]).to(self.device)
            if "TOA" in batch:
                toa = batch["TOA"].to(self.device)
                x = torch.cat([x, toa.unsqueeze(1)], dim=1)
            y = batch["y"].to(self.device)
            y_pred = self.model(x)
            loss = criterion(y.to(y_pred.dtype), y_pred)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

conf = {"data": {"TOA_forcing_path": "/glade/derecho/scratch/.../TOA_forcing.nc"}}
device = torch.device("cpu")
train_dataset = ERA5Dataset(conf)
model = CrossFormer(channels=8, out_channels=7).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
criterion = nn.MSELoss()
trainer = Trainer(model, device)
'''
CELL = '''
trainer.train_one_epoch(train_dataset, optimizer, criterion, steps=1)
'''
EXPECT_ERROR = ("Input type (double) and bias type (float) should be the same", "should be the same",
                "expected scalar type Double but found Float", "expected scalar type Float but found Double")
CULPRITS = ["train_dataset"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.tensor(selected_tsi).unsqueeze(0)",
                  "return torch.tensor(selected_tsi).unsqueeze(0).float()")
CLEAN = False
