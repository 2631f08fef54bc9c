"""PDEBench UNet training in autoregressive mode on a GPU: the prediction tensor is seeded from the CPU batch `yy`, not `yy_tensor`.

Source: https://github.com/pdebench/PDEBench/pull/96
The PR's table of bugs hit while training the UNet-AR model on 2D_diff-react lists "Tensor device
mismatch: Pred initialized on CPU while model output on CUDA" in `pdebench/models/unet/train.py`. In
`run_training`'s autoregressive branch, `xx_tensor = xx.to(device)` and `yy_tensor = yy.to(device)`
are made, but the prediction tensor is started with `pred = yy[..., :initial_step, :]` (the loader's
CPU batch), so the first `pred = torch.cat((pred, im), -2)` with the on-device model output fails.
Fix: move/seed `pred` from the device tensor (`yy_tensor[..., :initial_step, :]`), as the validation
loop of the same file already does. Stand-ins: a two-layer UNet1d, the training loop reduced to one
epoch over a list of CPU batches (`.item()` bookkeeping dropped); the meta device plays cuda.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("meta")      # PDEBench: torch.device("cuda" if torch.cuda.is_available() else "cpu")

class UNet1d(nn.Module):
    """Stand-in for pdebench.models.unet.unet.UNet1d (encoder/decoder reduced to two convs)."""
    def __init__(self, in_channels=3, out_channels=1, init_features=8):
        super().__init__()
        self.encoder1 = nn.Sequential(nn.Conv1d(in_channels, init_features, 3, padding=1), nn.Tanh())
        self.conv = nn.Conv1d(init_features, out_channels, 3, padding=1)

    def forward(self, x):
        return self.conv(self.encoder1(x))

def run_training(model, optimizer, train_loader, loss_fn, initial_step, t_train, unroll_step,
                 training_type="autoregressive"):
    model.train()
    train_l2_step = 0
    train_l2_full = 0
    for xx, yy in train_loader:
        loss = 0
        # xx: input tensor (first few time steps) [b, x1, ..., xd, t_init, v]
        # yy: target tensor [b, x1, ..., xd, t, v]
        xx_tensor = xx.to(device)
        yy_tensor = yy.to(device)
        batch_size = yy_tensor.size(0)

        if training_type in ["autoregressive"]:
            # Initialize the prediction tensor
            pred = yy[..., :initial_step, :]

            inp_shape = list(xx_tensor.shape)
            inp_shape = inp_shape[:-2]
            inp_shape.append(-1)

            for t in range(initial_step, t_train):
                if t < t_train - unroll_step:
                    with torch.no_grad():
                        inp = xx_tensor.reshape(inp_shape)
                        temp_shape = [0, -1]
                        temp_shape.extend(list(range(1, len(inp.shape) - 1)))
                        inp = inp.permute(temp_shape)
                        y = yy_tensor[..., t : t + 1, :]
                        temp_shape = [0]
                        temp_shape.extend(list(range(2, len(inp.shape))))
                        temp_shape.append(1)
                        im = model(inp).permute(temp_shape).unsqueeze(-2)
                        pred = torch.cat((pred, im), -2)
                        xx_tensor = torch.cat((xx_tensor[..., 1:, :], im), dim=-2)
                else:
                    inp = xx_tensor.reshape(inp_shape)
                    temp_shape = [0, -1]
                    temp_shape.extend(list(range(1, len(inp.shape) - 1)))
                    inp = inp.permute(temp_shape)
                    y = yy_tensor[..., t : t + 1, :]
                    temp_shape = [0]
                    temp_shape.extend(list(range(2, len(inp.shape))))
                    temp_shape.append(1)
                    im = model(inp).permute(temp_shape).unsqueeze(-2)
                    loss += loss_fn(im.reshape(batch_size, -1), y.reshape(batch_size, -1))
                    pred = torch.cat((pred, im), -2)
                    xx_tensor = torch.cat((xx_tensor[..., 1:, :], im), dim=-2)

            train_l2_step += loss.detach()
            _batch = yy_tensor.size(0)
            _yy = yy_tensor[..., :t_train, :]
            l2_full = loss_fn(pred.reshape(_batch, -1), _yy.reshape(_batch, -1))
            train_l2_full += l2_full.detach()

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return train_l2_step, train_l2_full

initial_step, t_train, unroll_step = 10, 14, 2
num_channels = 1
model = UNet1d(num_channels * initial_step, num_channels).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
loss_fn = nn.MSELoss(reduction="mean")
# what the DataLoader over UNetDatasetSingle yields: CPU batches [b, x, t, v]
train_loader = [(torch.randn(4, 32, initial_step, num_channels), torch.randn(4, 32, 20, num_channels))
                for _ in range(2)]
'''
CELL = '''
train_l2_step, train_l2_full = run_training(model, optimizer, train_loader, loss_fn,
                                            initial_step, t_train, unroll_step)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["run_training"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("pred = yy[..., :initial_step, :]", "pred = yy_tensor[..., :initial_step, :]")
CLEAN = False
