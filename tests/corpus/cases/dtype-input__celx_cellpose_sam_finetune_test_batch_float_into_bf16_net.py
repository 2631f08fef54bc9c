"""Cellpose-SAM fine-tuning with --test_dir: the validation batch reaches the bfloat16 network as float32.

Source: https://github.com/MouseLand/cellpose/issues/1254
`cellpose --train --pretrained_model cpsam --use_gpu ... --test_dir $VAL_DIR` failed in
`vit_sam.py` `self.encoder.patch_embed(x)` with "Input type (float) and bias type
(c10::BFloat16) should be the same"; the same command without `--test_dir` trained. The
CP-SAM network is loaded in bfloat16 (cellpose 4 default); `train_seg` casts the training
batches to the network's dtype, but the test-set pass converted its batch without the dtype.
Stand-in: a tiny Transformer (patch embedding conv + output conv, with the `dtype` attribute
cellpose keeps) and `train_seg` reduced to one train batch and one test batch; CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Transformer(nn.Module):
    def __init__(self, ps=8, dim=32, nout=3, dtype=torch.bfloat16):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, ps, stride=ps)
        self.out = nn.Conv2d(dim, nout * ps * ps, 1)
        self.ps = ps
        self.dtype = dtype
        self.to(dtype)

    def forward(self, x):
        x = self.out(torch.relu(self.patch_embed(x)))
        y = nn.functional.pixel_shuffle(x, self.ps)
        return y, x.mean((2, 3))

def _loss_fn_seg(lbl, y):
    return nn.functional.mse_loss(y.float(), lbl)

def train_seg(net, train_data, train_labels, test_data=None, test_labels=None,
              batch_size=2, learning_rate=1e-5, n_epochs=1):
    device = torch.device("cpu")
    optimizer = torch.optim.AdamW(net.parameters(), lr=learning_rate)
    train_losses, test_losses = [], []
    for iepoch in range(n_epochs):
        net.train()
        imgi, lbl = train_data[:batch_size], train_labels[:batch_size]
        X = torch.from_numpy(imgi).to(device).to(net.dtype)
        y = net(X)[0]
        loss = _loss_fn_seg(torch.from_numpy(lbl), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_losses.append(loss.item())
        if test_data is not None:
            net.eval()
            with torch.no_grad():
                imgi, lbl = test_data[:batch_size], test_labels[:batch_size]
                X = torch.from_numpy(imgi).to(device)
                y = net(X)[0]
                test_losses.append(_loss_fn_seg(torch.from_numpy(lbl), y).item())
    return train_losses, test_losses

rng = np.random.default_rng(0)
train_data = rng.random((4, 3, 32, 32), dtype=np.float32)
train_labels = rng.random((4, 3, 32, 32), dtype=np.float32)
test_data = rng.random((2, 3, 32, 32), dtype=np.float32)
test_labels = rng.random((2, 3, 32, 32), dtype=np.float32)
net = Transformer()
'''
CELL = '''
train_losses, test_losses = train_seg(net, train_data=train_data, train_labels=train_labels,
                                      test_data=test_data, test_labels=test_labels, n_epochs=1)
'''
EXPECT_ERROR = "Input type (float) and bias type (c10::BFloat16) should be the same"
CULPRITS = ["net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                X = torch.from_numpy(imgi).to(device)\n",
                  "                X = torch.from_numpy(imgi).to(device).to(net.dtype)\n")
CLEAN = False
