"""Mozilla TTS WaveGrad vocoder: resuming training, the Adam state is restored before `model.cuda()`.

Source: https://github.com/mozilla/TTS/issues/622
Continuing a WaveGrad vocoder run with `train_vocoder_wavegrad.py --restore_path ...` failed in the
first training step with "Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cpu!". `main()` loads the checkpoint with `map_location='cpu'` and calls
`optimizer.load_state_dict(checkpoint['optimizer'])` while the model is still on the CPU (so Adam's
`exp_avg`/`exp_avg_sq` are cast to the CPU), and only afterwards runs `model.cuda()`. The maintainer
answer (merged as PR #635) moves `model.cuda(); criterion.cuda()` above the restore block.
Stand-ins: a tiny Wavegrad (y_conv, one FiLM-like conv, x_conv, out_conv), the checkpoint an in-memory
dict from an earlier run, and grads set by hand (no backward in the fake-cuda simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn
from torch.optim import Adam

class Wavegrad(nn.Module):
    def __init__(self, in_channels=8, y_conv_channels=4, x_conv_channels=6):
        super().__init__()
        self.y_conv = nn.Conv1d(1, y_conv_channels, 5, padding=2)
        self.film = nn.Conv1d(y_conv_channels, x_conv_channels * 2, 3, padding=1)
        self.x_conv = nn.Conv1d(in_channels, x_conv_channels, 3, padding=1)
        self.out_conv = nn.Conv1d(x_conv_channels, 1, 3, padding=1)

    def forward(self, x, spectrogram, noise_scale):
        shift, scale = torch.chunk(self.film(self.y_conv(x)), 2, dim=1)
        h = self.x_conv(spectrogram)
        return self.out_conv(shift + scale * h)

def saved_checkpoint():
    """What the earlier run wrote with torch.save (model and optimizer after some steps)."""
    net = Wavegrad()
    opt = Adam(net.parameters(), lr=1e-4, weight_decay=0)
    for p in net.parameters():
        p.grad = torch.ones_like(p)
    opt.step()
    return {"model": net.state_dict(), "optimizer": opt.state_dict(), "step": 1000}

use_cuda = True
model = Wavegrad()
optimizer = Adam(model.parameters(), lr=1e-4, weight_decay=0)
criterion = torch.nn.L1Loss()

# if args.restore_path:
checkpoint = saved_checkpoint()          # torch.load(args.restore_path, map_location='cpu')
model.load_state_dict(checkpoint['model'])
optimizer.load_state_dict(checkpoint['optimizer'])
restore_step = checkpoint['step']

if use_cuda:
    model.to("cuda:0")                   # model.cuda()
    criterion.to("cuda:0")

# one batch from the data loader, moved as train() does
m = torch.randn(2, 8, 4).to("cuda:0")
noise = torch.randn(2, 1, 4).to("cuda:0")
noisy_audio = torch.randn(2, 1, 4).to("cuda:0")
noise_scale = torch.rand(2).to("cuda:0")
'''
CELL = '''
# train(model, criterion, optimizer, ...)
model.train()
optimizer.zero_grad()
noise_hat = model(noisy_audio, m, noise_scale)
loss = criterion(noise, noise_hat)
for p in model.parameters():             # stand-in for loss.backward()
    p.grad = torch.ones_like(p)
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in optimizer.state.values():
    for k, v in state.items():
        if isinstance(v, torch.Tensor) and k != "step":
            state[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
