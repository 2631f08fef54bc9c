"""deep_tabular_augmentation: the VAE was moved with `.to(DEVICE)` but the DataBunch's loaders still yield CPU batches.

Source: https://github.com/lschmiddey/deep_tabular_augmentation/issues/11
On `run.fit(...)` the user got "Expected all tensors to be on the same device, but found at least
two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_addmm)".
The model was built with `dta.Autoencoder(...).to(DEVICE)`, while `dta.DataBunch(*dta.create_loaders
(datasets, bs=1024))` wraps TensorDatasets made from numpy on the CPU; the maintainer: the tensors in
the dataloaders are not on the model's device, put them there (own dataloader). Stand-in: the
package's datasets/loaders/DataBunch, Autoencoder and loss as in the repo, the Runner's batch loop
without callbacks; "meta" plays the GPU so that the training step (backward, Adam) runs.
"""

SIM = "meta"
FAMILY = "device-container"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

def create_datasets(train_data, train_target, test_data, test_target):
    trn_ds = TensorDataset(torch.tensor(train_data).float(), torch.tensor(train_target).long())
    tst_ds = TensorDataset(torch.tensor(test_data).float(), torch.tensor(test_target).long())
    return trn_ds, tst_ds

def create_loaders(data, bs=128, jobs=0):
    trn_ds, tst_ds = data
    trn_dl = DataLoader(trn_ds, batch_size=bs, shuffle=True, num_workers=jobs)
    tst_dl = DataLoader(tst_ds, batch_size=bs, shuffle=False, num_workers=jobs)
    return trn_dl, tst_dl

class DataBunch():
    def __init__(self, train_dl, test_dl):
        self.train_dl, self.test_dl = train_dl, test_dl
    @property
    def train_ds(self): return self.train_dl.dataset
    @property
    def test_ds(self): return self.test_dl.dataset

class customLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse_loss = nn.MSELoss(reduction="sum")
    def forward(self, x_recon, x, mu, logvar):
        loss_MSE = self.mse_loss(x_recon, x)
        loss_KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        return loss_MSE + loss_KLD

def lin_layer(ni, no):
    return nn.Sequential(nn.Linear(ni, no), nn.BatchNorm1d(no), nn.ReLU())

def get_lin_layers(input_shape, output_shapes):
    output_shapes = [input_shape] + output_shapes
    return [lin_layer(output_shapes[i], output_shapes[i + 1]) for i in range(len(output_shapes) - 1)]

def get_lin_layers_rev(input_shape, output_shapes):
    output_shapes = output_shapes[::-1] + [input_shape]
    layers = [lin_layer(output_shapes[i], output_shapes[i + 1]) for i in range(len(output_shapes) - 1)]
    layers[-1] = layers[-1][:-1]
    return layers

class Autoencoder(nn.Module):
    def __init__(self, lin_layers, lin_layers_rev, latent_dim=3):
        super().__init__()
        self.encoder = lin_layers
        self.fc1 = nn.Linear(lin_layers[-1][0].out_features, latent_dim)
        self.bn1 = nn.BatchNorm1d(num_features=latent_dim)
        self.fc21 = nn.Linear(latent_dim, latent_dim)
        self.fc22 = nn.Linear(latent_dim, latent_dim)
        self.fc3 = nn.Linear(latent_dim, latent_dim)
        self.fc_bn3 = nn.BatchNorm1d(latent_dim)
        self.fc4 = nn.Linear(latent_dim, lin_layers[-1][0].out_features)
        self.fc_bn4 = nn.BatchNorm1d(lin_layers[-1][0].out_features)
        self.decoder = lin_layers_rev
    def encode(self, x):
        fc1 = F.relu(self.bn1(self.fc1(self.encoder(x))))
        return self.fc21(fc1), self.fc22(fc1)
    def reparameterize(self, mu, logvar):
        if self.training:
            std = logvar.mul(0.5).exp_()
            eps = std.data.new(std.size()).normal_()
            return eps.mul(std).add_(mu)
        return mu
    def decode(self, z):
        fc3 = F.relu(self.fc_bn3(self.fc3(z)))
        fc4 = F.relu(self.fc_bn4(self.fc4(fc3)))
        return self.decoder(fc4)
    def forward(self, x):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar

class Learner():
    def __init__(self, model, opt, loss_func, data, target_name, target_class, cols, cont_vars=None):
        self.model, self.opt, self.loss_func, self.data = model, opt, loss_func, data
        self.target_name, self.target_class, self.cols, self.cont_vars = target_name, target_class, cols, cont_vars

class Runner():
    def one_batch(self, xb, _):
        self.xb = xb
        self.recon_batch, self.mu, self.logvar = self.learn.model(self.xb)
        self.loss = self.learn.loss_func(self.recon_batch, self.xb, self.mu, self.logvar)
        if not self.in_train:
            return
        self.loss.backward()
        self.learn.opt.step()
        self.learn.opt.zero_grad()
    def all_batches(self, dl):
        for xb, _ in dl:
            self.one_batch(xb, _)
    def fit(self, epochs, learn):
        self.epochs, self.learn = epochs, learn
        for epoch in range(epochs):
            self.in_train = True
            self.learn.model.train()
            self.all_batches(self.learn.data.train_dl)
            with torch.no_grad():
                self.in_train = False
                self.learn.model.eval()
                self.all_batches(self.learn.data.test_dl)

DEVICE = torch.device("meta")            # "cuda" on the user's machine
rng = np.random.default_rng(0)
X_train, X_test = rng.standard_normal((2000, 10)), rng.standard_normal((500, 10))
y_train, y_test = np.ones(2000), np.ones(500)
cols = [f"V{i}" for i in range(10)]
datasets = create_datasets(X_train, y_train, X_test, y_test)
data = DataBunch(*create_loaders(datasets, bs=1024))
D_in = X_train.shape[1]
VAE_arch = [50, 12, 12]
model = Autoencoder(nn.Sequential(*get_lin_layers(D_in, VAE_arch)),
                    nn.Sequential(*get_lin_layers_rev(D_in, VAE_arch)), latent_dim=5).to(DEVICE)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_func = customLoss()
learn = Learner(model, opt, loss_func, data, "Class", 1, cols)
run = Runner()
'''
CELL = '''
run.fit(1, learn)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["data"]
FIX = "namespace"
REFERENCE_FIX = '''
data.train_dl = DataLoader(TensorDataset(*[t.to(DEVICE) for t in data.train_ds.tensors]), batch_size=1024, shuffle=True)
data.test_dl = DataLoader(TensorDataset(*[t.to(DEVICE) for t in data.test_ds.tensors]), batch_size=1024, shuffle=False)
'''
REFERENCE_EDIT = None
CLEAN = False
