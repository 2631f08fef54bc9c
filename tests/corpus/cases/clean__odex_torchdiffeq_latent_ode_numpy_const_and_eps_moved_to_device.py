"""Look-alike: torchdiffeq's latent ODE example builds constants and noise on the CPU and moves each to the data's device.

Source: https://github.com/rtqichen/torchdiffeq/blob/master/examples/latent_ode.py
`log_normal_pdf` makes `const = torch.from_numpy(np.array([2. * np.pi])).float().to(x.device)`;
`RecognitionRNN.initHidden()` returns `torch.zeros(nbatch, nhidden)` and the training loop calls
`rec.initHidden().to(device)`; the reparameterisation noise is `torch.randn(qz0_mean.size()).to(device)`
and `noise_logvar = 2. * torch.log(noise_std_).to(device)`. All of it lands on the GPU.
Stand-ins: the recognition RNN iterates over `unbind(1)` (reversed) instead of indexing;
`odeint` is fixed-step Euler over the sample times.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def odeint(func, y0, t):
    ts = t.unbind(0)
    ys, y = [y0], y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        y = y + (t1 - t0) * func(t0, y)
        ys.append(y)
    return torch.stack(ys)

class LatentODEfunc(nn.Module):
    def __init__(self, latent_dim=4, nhidden=20):
        super(LatentODEfunc, self).__init__()
        self.elu = nn.ELU(inplace=True)
        self.fc1 = nn.Linear(latent_dim, nhidden)
        self.fc2 = nn.Linear(nhidden, nhidden)
        self.fc3 = nn.Linear(nhidden, latent_dim)
        self.nfe = 0

    def forward(self, t, x):
        self.nfe += 1
        return self.fc3(self.elu(self.fc2(self.elu(self.fc1(x)))))

class RecognitionRNN(nn.Module):
    def __init__(self, latent_dim=4, obs_dim=2, nhidden=25, nbatch=1):
        super(RecognitionRNN, self).__init__()
        self.nhidden = nhidden
        self.nbatch = nbatch
        self.i2h = nn.Linear(obs_dim + nhidden, nhidden)
        self.h2o = nn.Linear(nhidden, latent_dim * 2)

    def forward(self, x, h):
        combined = torch.cat((x, h), dim=1)
        h = torch.tanh(self.i2h(combined))
        out = self.h2o(h)
        return out, h

    def initHidden(self):
        return torch.zeros(self.nbatch, self.nhidden)

class Decoder(nn.Module):
    def __init__(self, latent_dim=4, obs_dim=2, nhidden=20):
        super(Decoder, self).__init__()
        self.relu = nn.ReLU(inplace=True)
        self.fc1 = nn.Linear(latent_dim, nhidden)
        self.fc2 = nn.Linear(nhidden, obs_dim)

    def forward(self, z):
        return self.fc2(self.relu(self.fc1(z)))

def log_normal_pdf(x, mean, logvar):
    const = torch.from_numpy(np.array([2. * np.pi])).float().to(x.device)
    const = torch.log(const)
    return -.5 * (const + logvar + (x - mean) ** 2. / torch.exp(logvar))

def normal_kl(mu1, lv1, mu2, lv2):
    v1 = torch.exp(lv1)
    v2 = torch.exp(lv2)
    lstd1 = lv1 / 2.
    lstd2 = lv2 / 2.
    return lstd2 - lstd1 + ((v1 + (mu1 - mu2) ** 2.) / (2. * v2)) - .5

latent_dim, nhidden, rnn_nhidden, obs_dim, nspiral, ntotal = 4, 20, 25, 2, 16, 30
noise_std = .3
device = torch.device("cuda:0")
samp_trajs = torch.randn(nspiral, ntotal, obs_dim).to(device)
samp_ts = torch.linspace(0, 6 * np.pi, ntotal).to(device)

func = LatentODEfunc(latent_dim, nhidden).to(device)
rec = RecognitionRNN(latent_dim, obs_dim, rnn_nhidden, nspiral).to(device)
dec = Decoder(latent_dim, obs_dim, nhidden).to(device)
'''
CELL = '''
h = rec.initHidden().to(device)
for obs in reversed(samp_trajs.unbind(1)):
    out, h = rec.forward(obs, h)
qz0_mean, qz0_logvar = out[:, :latent_dim], out[:, latent_dim:]
epsilon = torch.randn(qz0_mean.size()).to(device)
z0 = epsilon * torch.exp(.5 * qz0_logvar) + qz0_mean
pred_z = odeint(func, z0, samp_ts).permute(1, 0, 2)
pred_x = dec(pred_z)
noise_std_ = torch.zeros(pred_x.size()).to(device) + noise_std
noise_logvar = 2. * torch.log(noise_std_).to(device)
logpx = log_normal_pdf(samp_trajs, pred_x, noise_logvar).sum(-1).sum(-1)
pz0_mean = pz0_logvar = torch.zeros(z0.size()).to(device)
analytic_kl = normal_kl(qz0_mean, qz0_logvar, pz0_mean, pz0_logvar).sum(-1)
loss = torch.mean(-logpx + analytic_kl, dim=0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
