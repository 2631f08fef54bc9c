"""FedTabDiff Flower simulation: the client's synthesizer stays on the CPU while `train_model` moves the batches to cuda.

Source: https://github.com/sattarov/FedTabDiff/issues/1
The Flower simulation crashed in the clients' `fit` with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu! (... mat1 in method wrapper_CUDA_addmm)"
raised in `self.time_embed(timestep_embedding(timesteps, self.dim_t))`: `train_model` moved
`batch_cat`, `batch_num`, `batch_y` to `exp_params['device']` and the diffuser samples the timesteps
there, but the MLPSynthesizer built by `init_model` was never moved. The reporter's fix (PR #2) adds
`synthesizer.to(device)` in `train_model`. Stand-in: MLPSynthesizer / BaseDiffuser reduced to the
time embedding, label embedding, categorical embedding and noise schedule; FlowerClient without the
Flower base class; "meta" plays the GPU (losses are kept as tensors instead of `.cpu().numpy()`).
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn, optim

def timestep_embedding(timesteps, dim_out, max_period=10000):
    half_dim = dim_out // 2
    exponent = -math.log(max_period) * torch.arange(half_dim, dtype=torch.float32, device=timesteps.device) / half_dim
    emb = timesteps[:, None].float() * torch.exp(exponent)[None, :]
    return torch.cat([torch.cos(emb), torch.sin(emb)], dim=-1)

class MLPSynthesizer(nn.Module):
    def __init__(self, d_in, hidden_layers, n_cat_tokens, n_cat_emb, n_classes, dim_t=16):
        super().__init__()
        self.dim_t = dim_t
        self.embedding = nn.Embedding(n_cat_tokens, n_cat_emb)
        self.time_embed = nn.Sequential(nn.Linear(dim_t, dim_t), nn.SiLU(), nn.Linear(dim_t, dim_t))
        self.label_emb = nn.Embedding(n_classes, dim_t)
        self.proj = nn.Linear(d_in, dim_t)
        layers, d = [], dim_t
        for h in hidden_layers:
            layers += [nn.Linear(d, h), nn.ReLU()]
            d = h
        self.mlp = nn.Sequential(*layers, nn.Linear(d, d_in))

    def embed_categorical(self, x_cat):
        return self.embedding(x_cat).flatten(start_dim=1)

    def forward(self, x, timesteps, label):
        emb = self.time_embed(timestep_embedding(timesteps, self.dim_t))
        emb = emb + self.label_emb(label)
        return self.mlp(self.proj(x) + emb)

class BaseDiffuser(object):
    def __init__(self, total_steps=100, beta_start=1e-4, beta_end=0.02, device="cpu"):
        self.total_steps, self.device = total_steps, device
        self.betas = torch.linspace(beta_start, beta_end, total_steps).to(device)
        self.alphas_hat = torch.cumprod(1.0 - self.betas, dim=0)

    def sample_timesteps(self, n):
        return torch.randint(low=1, high=self.total_steps, size=(n,), device=self.device)

    def add_gauss_noise(self, x_num, t):
        sqrt_alpha_hat = torch.sqrt(self.alphas_hat[t])[:, None]
        sqrt_one_minus_alpha_hat = torch.sqrt(1.0 - self.alphas_hat[t])[:, None]
        noise = torch.randn_like(x_num)
        return sqrt_alpha_hat * x_num + sqrt_one_minus_alpha_hat * noise, noise

def init_model(exp_params):
    synthesizer = MLPSynthesizer(d_in=exp_params['encoded_dim'], hidden_layers=exp_params['mlp_layers'],
                                 n_cat_tokens=exp_params['n_cat_tokens'], n_cat_emb=exp_params['n_cat_emb'],
                                 n_classes=exp_params['n_classes'])
    diffuser = BaseDiffuser(total_steps=exp_params['diffusion_steps'], device=exp_params['device'])
    return synthesizer, diffuser

def train_model(synthesizer, diffuser, train_loader, exp_params, optimizer=None):
    device = exp_params['device']
    parameters = filter(lambda p: p.requires_grad, synthesizer.parameters())
    if optimizer is None:
        optimizer = optim.Adam(parameters, lr=exp_params['learning_rate'])
    loss_fnc = nn.MSELoss()
    total_losses = []
    for _, (batch_cat, batch_num, batch_y) in enumerate(train_loader):
        synthesizer.train()
        batch_cat = batch_cat.to(device)
        batch_num = batch_num.to(device)
        batch_y = batch_y.to(device)
        timesteps = diffuser.sample_timesteps(n=batch_cat.shape[0])
        batch_cat_emb = synthesizer.embed_categorical(x_cat=batch_cat)
        batch_cat_num = torch.cat((batch_cat_emb, batch_num), dim=1)
        batch_noise_t, noise_t = diffuser.add_gauss_noise(x_num=batch_cat_num, t=timesteps)
        predicted_noise = synthesizer(x=batch_noise_t, timesteps=timesteps, label=batch_y)
        train_losses = loss_fnc(input=noise_t, target=predicted_noise)
        optimizer.zero_grad()
        train_losses.backward()
        optimizer.step()
        total_losses.append(train_losses.detach())
    return torch.stack(total_losses).mean()

class FlowerClient:
    def __init__(self, cid, train_loader, exp_params):
        self.cid, self.train_loader, self.exp_params = cid, train_loader, exp_params
        self.synthesizer, self.diffuser = init_model(exp_params)

    def fit(self, parameters, config):
        loss = train_model(self.synthesizer, self.diffuser, self.train_loader, self.exp_params)
        return parameters, len(self.train_loader), {"loss": loss}

exp_params = dict(encoded_dim=3 * 4 + 5, mlp_layers=[32, 32], n_cat_tokens=20, n_cat_emb=4, n_classes=3,
                  diffusion_steps=100, learning_rate=1e-3, device=torch.device("meta"))   # "cuda" in the repo
train_loader = [(torch.randint(0, 20, (8, 3)), torch.randn(8, 5), torch.randint(0, 3, (8,))) for _ in range(2)]
client = FlowerClient(cid="0", train_loader=train_loader, exp_params=exp_params)
'''
CELL = '''
parameters, num_examples, metrics = client.fit(None, {})
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["client.synthesizer"]
FIX = "namespace"
REFERENCE_FIX = '''
client.synthesizer.to(exp_params['device'])
'''
REFERENCE_EDIT = None
CLEAN = False
