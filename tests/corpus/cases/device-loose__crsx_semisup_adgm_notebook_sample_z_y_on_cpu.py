"""semi-supervised-pytorch ADGM notebook: `model.sample(z, y)` with `z` and the one-hot `y` made on the CPU beside a cuda model.

Source: https://github.com/wohlert/semi-supervised-pytorch/issues/7
Running the "Auxiliary Deep Generative Model" notebook on a GPU, the cell `z = Variable(torch.randn(16,
32)); y = Variable(onehot(10)(5).repeat(16, 1)); x_mu = model.sample(z, y)` failed in `dgm.py`'s
`sample` at `self.decoder(torch.cat([z, y], dim=1))` with "Expected object of type
torch.cuda.FloatTensor but found type torch.FloatTensor for argument #4 'mat1'": the model was
moved with `.cuda()` in the training cells, the latent sample and label were created on the CPU;
both have to be moved to the GPU (`.cuda()`) before sampling.
Stand-in: the ADGM reduced to its decoder and `sample`, the repo's `onehot` helper; the notebook
cell is split so that the latent/label creation is an earlier cell.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
from torch.autograd import Variable

def onehot(k):
    def encode(label):
        y = torch.zeros(k)
        if label < k:
            y[label] = 1
        return y
    return encode

class Decoder(nn.Module):
    def __init__(self, dims):
        super().__init__()
        [z_dim, h_dim, x_dim] = dims
        neurons = [z_dim, *h_dim]
        self.hidden = nn.ModuleList([nn.Linear(neurons[i - 1], neurons[i]) for i in range(1, len(neurons))])
        self.reconstruction = nn.Linear(h_dim[-1], x_dim)
        self.output_activation = nn.Sigmoid()

    def forward(self, x):
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.output_activation(self.reconstruction(x))

class AuxiliaryDeepGenerativeModel(nn.Module):
    def __init__(self, dims):
        super().__init__()
        x_dim, self.y_dim, z_dim, a_dim, h_dim = dims
        self.decoder = Decoder([z_dim + self.y_dim, list(reversed(h_dim)), x_dim])

    def sample(self, z, y):
        y = y.float()
        x = self.decoder(torch.cat([z, y], dim=1))
        return x

y_dim, z_dim, a_dim, h_dim = 10, 32, 32, [256, 128]
model = AuxiliaryDeepGenerativeModel([784, y_dim, z_dim, a_dim, h_dim])
cuda = True
if cuda:
    model = model.to("cuda:0")   # the notebook: model = model.cuda()

model.eval()
z = Variable(torch.randn(16, 32))
# Generate a batch of 5s
y = Variable(onehot(10)(5).repeat(16, 1))
'''
CELL = '''
x_mu = model.sample(z, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["z", "y"]
FIX = "namespace"
REFERENCE_FIX = '''
z = z.to("cuda:0")
y = y.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
