"""CellOT scGen autoencoder: the user moves the model to the GPU in `train_auto_encoder`, the loader batches stay on the CPU.

Source: https://github.com/bunnech/cellot/issues/8
To speed up the scGen autoencoder one user added `device = torch.device("cuda:0" ...)` and
`model = model.to(device)` to `train_auto_encoder`; another who did the same got "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for
argument mat1 in method wrapper_addmm)". The answer: the loader still yields CPU tensors, so each batch
taken with `next(iterator)` must be moved too (`x = x.to(device)` after every `next`).
Stand-ins: cellot's `dnn`/`AutoEncoder` (scGen), `load_autoencoder_model` and
`cast_loader_to_iterator` over a small expression matrix.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import itertools
from collections import namedtuple
import torch
from torch import nn

def dnn(dinput, doutput, hidden_units=(16, 16), activation="ReLU", dropout=0.0):
    hidden_units = list(hidden_units)
    Activation = getattr(nn, activation)
    layers = []
    for indim, outdim in zip([dinput] + hidden_units[:-1], hidden_units):
        layers.append(nn.Linear(indim, outdim))
        layers.append(Activation())
    layers.append(nn.Linear(hidden_units[-1], doutput))
    return nn.Sequential(*layers)

class AutoEncoder(nn.Module):
    """Stand-in for cellot.models.ae.AutoEncoder (the scGen model)."""
    LossComps = namedtuple("AELoss", "mse reg")
    Outputs = namedtuple("AEOutputs", "recon code")

    def __init__(self, input_dim, latent_dim, hidden_units=None, beta=0, dropout=0):
        super().__init__()
        self.beta = beta
        self.encoder_net = dnn(input_dim, latent_dim, hidden_units, dropout=dropout)
        self.decoder_net = dnn(latent_dim, input_dim, hidden_units[::-1], dropout=dropout)
        self.mse = nn.MSELoss(reduction="none")

    def encode(self, inputs):
        return self.encoder_net(inputs)

    def decode(self, code):
        return self.decoder_net(code)

    def outputs(self, inputs):
        code = self.encode(inputs)
        return self.Outputs(self.decode(code), code)

    def loss(self, inputs, outputs):
        mse = self.mse(outputs.recon, inputs).mean(dim=-1)
        reg = torch.norm(outputs.code, dim=-1) ** 2
        return mse + self.beta * reg, self.LossComps(mse, reg)

    def forward(self, inputs):
        outs = self.outputs(inputs)
        loss, comps = self.loss(inputs, outs)
        return loss, comps, outs

def load_autoencoder_model(input_dim, latent_dim=8, hidden_units=(32, 16), lr=1e-3):
    model = AutoEncoder(input_dim, latent_dim, hidden_units=list(hidden_units))
    optim = torch.optim.Adam(model.parameters(), lr=lr)
    return model, optim

def cast_loader_to_iterator(X, batch_size=16):
    """Stand-in: cycling iterators over the train/test split of the (CPU) expression matrix."""
    n_train = int(0.8 * X.shape[0])
    Iterators = namedtuple("Iterators", "train test")
    return Iterators(itertools.cycle(torch.split(X[:n_train], batch_size)),
                     itertools.cycle(torch.split(X[n_train:], batch_size)))

X = torch.rand(80, 50)                              # log-normalised expression, 80 cells x 50 genes
model, optim = load_autoencoder_model(input_dim=50)
iterator = cast_loader_to_iterator(X)

device = torch.device("cuda:0")                     # the line the user added to train_auto_encoder
model = model.to(device)

model.train()
inputs = next(iterator.train)
'''
CELL = '''
loss, comps, _ = model(inputs)
loss = loss.mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
