"""NASA battery SOH with MVIP-Trans: the float64 feature images from numpy go straight into the patch-embedding Linear.

Source: https://github.com/Tianyou-Bai/NASA_Li-ion_Battery_SOH_Prediction_with_MVIP-Trans/issues/2
`y_pred, _, _ = model(inputs)` in `soh_train.py` failed at `x = self.to_patch_embedding(img)`; the
reporter: "only by changing float64 to float32 could it run" -- the charge/discharge feature
matrices are built with numpy (float64) and converted with `torch.from_numpy`, keeping the dtype.
Stand-in: a reduced ViT-style model (Rearrange + Linear patch embedding, one encoder layer).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Rearrange(nn.Module):
    """'b c (h p1) (w p2) -> b (h w) (p1 p2 c)'"""
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, img):
        b, c, H, W = img.shape
        p = self.p
        x = img.reshape(b, c, H // p, p, W // p, p).permute(0, 2, 4, 3, 5, 1)
        return x.reshape(b, (H // p) * (W // p), p * p * c)

class MVIPTrans(nn.Module):
    def __init__(self, image_size=16, patch=4, channels=3, dim=32):
        super().__init__()
        num_patches = (image_size // patch) ** 2
        self.to_patch_embedding = nn.Sequential(Rearrange(patch), nn.Linear(patch * patch * channels, dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, num_patches, dim))
        self.encoder = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
        self.mlp_head = nn.Linear(dim, 1)

    def forward(self, img):
        x = self.to_patch_embedding(img)
        x = self.encoder(x + self.pos_embedding)
        attn = x.mean(dim=1)
        return self.mlp_head(attn).squeeze(-1), attn, x

def experiment(model, train_x, train_y, epochs=2, batch_size=8, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss()
    for epoch in range(epochs):
        for i in range(0, len(train_x), batch_size):
            inputs, targets = train_x[i:i + batch_size], train_y[i:i + batch_size]
            y_pred, _, _ = model(inputs)
            loss = loss_fn(y_pred, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return model

rng = np.random.default_rng(1)
# voltage / current / temperature curves of each cycle, resampled into 16x16 "images"
features = rng.normal(size=(32, 3, 16, 16))
capacity = rng.uniform(1.3, 2.0, size=32).astype(np.float32)
train_x = torch.from_numpy(features)
train_y = torch.from_numpy(capacity)
model = MVIPTrans()
'''
CELL = '''
model = experiment(model, train_x, train_y)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["train_x"]
FIX = "namespace"
REFERENCE_FIX = '''
train_x = train_x.float()
'''
REFERENCE_EDIT = None
CLEAN = False
