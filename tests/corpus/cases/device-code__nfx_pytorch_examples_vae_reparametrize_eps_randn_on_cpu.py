"""pytorch/examples MNIST VAE: `reparametrize` draws `eps` with `torch.randn(std.size())` on the CPU while the model runs on cuda.

Source: https://github.com/pytorch/examples/pull/52
"Fix CUDA mode in VAE example": run with CUDA, the VAE example broke because
`VAE.reparametrize` built its noise as `Variable(torch.randn(std.size()))`, a CPU tensor, and
multiplied it into the CUDA `std` / added the CUDA `mu`. The fix draws `eps` on the GPU when
`args.cuda` (`torch.cuda.FloatTensor(std.size()).normal_()`; the example now uses
`torch.randn_like(std)`); the same PR also moved each `data` batch to cuda, as the batch here is.
Stand-in: the example's `VAE` of the time (fc1/fc21/fc22/fc3/fc4, encode/reparametrize/decode and
its loss), `Variable` dropped; an MNIST batch replaced by random 784-pixel rows on cuda.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()

        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, 20)
        self.fc22 = nn.Linear(400, 20)
        self.fc3 = nn.Linear(20, 400)
        self.fc4 = nn.Linear(400, 784)

        self.relu = nn.ReLU()
        self.sigmoid = nn.Sigmoid()

    def encode(self, x):
        h1 = self.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp_()
        eps = torch.randn(std.size())
        return eps.mul(std).add_(mu)

    def decode(self, z):
        h3 = self.relu(self.fc3(z))
        return self.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparametrize(mu, logvar)
        return self.decode(z), mu, logvar

reconstruction_function = nn.BCELoss(reduction="sum")

def loss_function(recon_x, x, mu, logvar):
    BCE = reconstruction_function(recon_x, x)
    KLD_element = mu.pow(2).add_(logvar.exp()).mul_(-1).add_(1).add_(logvar)
    KLD = torch.sum(KLD_element).mul_(-0.5)
    return BCE + KLD

device = torch.device("cuda:0")
model = VAE()
model.to(device)
data = torch.rand(128, 784).to(device)
'''
CELL = '''
recon_batch, mu, logvar = model(data)
loss = loss_function(recon_batch, data, mu, logvar)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("eps = torch.randn(std.size())", "eps = torch.randn(std.size(), device=std.device)")
CLEAN = False
