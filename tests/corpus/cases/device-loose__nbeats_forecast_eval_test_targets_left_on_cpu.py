"""nbeats_forecast's `NBeats.fit` evaluates on the test split with a CUDA forecast against CPU targets when `mode="cuda"`.

Source: https://github.com/amitesh863/nbeats_forecast/issues/6
A user built `model = NBeats(data=train, period_to_forecast=12, mode="cuda")` and called
`model.fit(optimiser=Adam(model.parameters, lr=0.001, ...))`; it raised a RuntimeError right after
the N-Beats stacks were printed ("Cuda doesn't work"). `fit` first calls `eval_test`, which runs
    _, forecast = self.net(torch.tensor(x_test, dtype=torch.float))
    test_losses.append(F.mse_loss(forecast, torch.tensor(y_test, dtype=torch.float)).item())
The network moves its input to its device inside each block (nbeats_pytorch's Block.forward does
`x.to(self.device)`), so `forecast` is on the GPU while the `y_test` target tensor is built on the
CPU; the training steps move both with `.to(self.device)`, the evaluation does not.
Stand-in: nbeats_pytorch's NBeatsNet/Block/GenericBlock as in that package, and the wrapper class
with its fit/eval_test/train_100_grad_steps; the stacks are an nn.ModuleList (the package keeps a
plain list plus an nn.ParameterList of the same parameters, which cuda moves in place); the checkpoint is kept in memory instead of a file,
the test loss is kept as a tensor (no `.item()`) and the plotting branch is left out. SIM "meta":
"meta" plays the GPU (`mode="meta"`), since the training steps need backward.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn, optim
from torch.nn import functional as F
from torch.optim import Adam

def squeeze_last_dim(tensor):
    if len(tensor.shape) == 3 and tensor.shape[-1] == 1:
        return tensor[..., 0]
    return tensor

def linear_space(backcast_length, forecast_length):
    ls = np.arange(-backcast_length, forecast_length, 1) / forecast_length
    return ls[:backcast_length], ls[backcast_length:]

class Block(nn.Module):
    def __init__(self, units, thetas_dim, device, backcast_length=10, forecast_length=5, share_thetas=False):
        super().__init__()
        self.units, self.thetas_dim = units, thetas_dim
        self.backcast_length, self.forecast_length = backcast_length, forecast_length
        self.share_thetas = share_thetas
        self.fc1 = nn.Linear(backcast_length, units)
        self.fc2 = nn.Linear(units, units)
        self.fc3 = nn.Linear(units, units)
        self.fc4 = nn.Linear(units, units)
        self.device = device
        self.backcast_linspace, self.forecast_linspace = linear_space(backcast_length, forecast_length)
        if share_thetas:
            self.theta_f_fc = self.theta_b_fc = nn.Linear(units, thetas_dim, bias=False)
        else:
            self.theta_b_fc = nn.Linear(units, thetas_dim, bias=False)
            self.theta_f_fc = nn.Linear(units, thetas_dim, bias=False)

    def forward(self, x):
        x = F.relu(self.fc1(x.to(self.device)))
        x = F.relu(self.fc2(x))
        x = F.relu(self.fc3(x))
        return F.relu(self.fc4(x))

class GenericBlock(Block):
    def __init__(self, units, thetas_dim, device, backcast_length=10, forecast_length=5):
        super().__init__(units, thetas_dim, device, backcast_length, forecast_length)
        self.backcast_fc = nn.Linear(thetas_dim, backcast_length)
        self.forecast_fc = nn.Linear(thetas_dim, forecast_length)

    def forward(self, x):
        x = super().forward(x)
        return self.backcast_fc(self.theta_b_fc(x)), self.forecast_fc(self.theta_f_fc(x))

class NBeatsNet(nn.Module):
    GENERIC_BLOCK = 'generic'

    def __init__(self, stack_types, forecast_length, thetas_dims, nb_blocks_per_stack,
                 backcast_length, hidden_layer_units, share_weights_in_stack, device):
        super().__init__()
        self.forecast_length, self.backcast_length = forecast_length, backcast_length
        self.device = device
        self.stacks = nn.ModuleList()
        for stack_id in range(len(stack_types)):
            blocks = nn.ModuleList()
            for block_id in range(nb_blocks_per_stack):
                blocks.append(GenericBlock(hidden_layer_units, thetas_dims[stack_id], device,
                                           backcast_length, forecast_length))
            self.stacks.append(blocks)
        self.to(self.device)

    def forward(self, backcast):
        forecast = torch.zeros(size=(backcast.size()[0], self.forecast_length))
        for stack in self.stacks:
            for block in stack:
                b, f = block(backcast)
                backcast = backcast.to(self.device) - b
                forecast = forecast.to(self.device) + f
        return backcast, forecast

class NBeats:
    def __init__(self, data, period_to_forecast, backcast_length=None, mode='cpu', batch_size=None,
                 thetas_dims=[7, 8], nb_blocks_per_stack=3, share_weights_in_stack=False,
                 train_percent=0.8, hidden_layer_units=128):
        self.data = data
        self.forecast_length = period_to_forecast
        self.backcast_length = 3 * self.forecast_length if backcast_length is None else backcast_length
        self.batch_size = int(self.data.shape[0] / 15) if batch_size is None else batch_size
        self.device = torch.device(mode)
        self.train_size = train_percent
        self.net = NBeatsNet(stack_types=[NBeatsNet.GENERIC_BLOCK, NBeatsNet.GENERIC_BLOCK],
                             forecast_length=self.forecast_length, thetas_dims=thetas_dims,
                             nb_blocks_per_stack=nb_blocks_per_stack, backcast_length=self.backcast_length,
                             hidden_layer_units=hidden_layer_units,
                             share_weights_in_stack=share_weights_in_stack, device=self.device)
        self.parameters = self.net.parameters()
        self.global_step_cl = 0
        self.checkpoint = None

    def data_generator(self, x_full, y_full, bs):
        def split(arr, size):
            arrays = []
            while len(arr) > size:
                arrays.append(arr[:size])
                arr = arr[size:]
            arrays.append(arr)
            return arrays
        while True:
            for rr in split((x_full, y_full), bs):
                yield rr

    def loader(self, model, optimiser):
        if self.checkpoint is not None:
            model.load_state_dict(self.checkpoint['model_state_dict'])
            optimiser.load_state_dict(self.checkpoint['optimizer_state_dict'])
            return self.checkpoint['grad_step']
        return 0

    def saver(self, model, optimiser, grad_step):
        self.checkpoint = {'grad_step': grad_step, 'model_state_dict': model.state_dict(),
                           'optimizer_state_dict': optimiser.state_dict()}

    def train_100_grad_steps(self, data, test_losses):
        global_step = self.loader(self.net, self.optimiser)
        self.global_step_cl = global_step
        for x_train_batch, y_train_batch in data:
            self.global_step_cl += 1
            self.optimiser.zero_grad()
            self.net.train()
            _, forecast = self.net(torch.tensor(x_train_batch, dtype=torch.float).to(self.device))
            loss = F.mse_loss(forecast, torch.tensor(y_train_batch, dtype=torch.float).to(self.device))
            loss.backward()
            self.optimiser.step()
            if self.global_step_cl > 0 and self.global_step_cl % 100 == 0:
                with torch.no_grad():
                    self.saver(self.net, self.optimiser, self.global_step_cl)
                break
        return forecast

    def eval_test(self, test_losses, x_test, y_test):
        self.net.eval()
        _, forecast = self.net(torch.tensor(x_test, dtype=torch.float))
        test_losses.append(F.mse_loss(forecast, torch.tensor(y_test, dtype=torch.float)).detach())

    def fit(self, epoch=25, optimiser=None, plot=False, verbose=True):
        self.plot, self.verbose, self.epoch = plot, verbose, epoch
        self.norm_constant = np.max(self.data)
        self.data = self.data / self.norm_constant
        x_train_batch, y = [], []
        for i in range(self.backcast_length, len(self.data) - self.forecast_length):
            x_train_batch.append(self.data[i - self.backcast_length:i])
            y.append(self.data[i:i + self.forecast_length])
        x_train_batch = np.array(x_train_batch)[..., 0]
        y = np.array(y)[..., 0]
        self.optimiser = optim.Adam(self.net.parameters()) if optimiser is None else optimiser
        c = int(len(x_train_batch) * self.train_size)
        x_train, y_train = x_train_batch[:c], y[:c]
        x_test, y_test = x_train_batch[c:], y[c:]
        train_data = self.data_generator(x_train, y_train, self.batch_size)
        test_losses = []
        for i in range(self.epoch):
            self.eval_test(test_losses, x_test, y_test)
            self.train_100_grad_steps(train_data, test_losses)
        return test_losses

rng = np.random.default_rng(0)
months = np.arange(240)
train = (100 + 0.5 * months + 10 * np.sin(2 * np.pi * months / 12) + rng.normal(0, 2, 240)).reshape(-1, 1)
model = NBeats(data=train, period_to_forecast=12, mode="meta")
'''
CELL = '''
model.fit(epoch=1, optimiser=Adam(model.parameters, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False), verbose=False)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "F.mse_loss(forecast, torch.tensor(y_test, dtype=torch.float))",
    "F.mse_loss(forecast, torch.tensor(y_test, dtype=torch.float).to(self.device))",
)
CLEAN = False
