"""Neural CDE example on a GPU: the spline coefficients are a tuple of tensors that stays on the CPU.

Source: https://github.com/patrick-kidger/NeuralCDE/issues/1
"train on gpu": in the repository's example `train_coeffs` (the natural cubic spline coefficients
of the training paths) is a tuple, and the user could not see how to move it to the GPU with the
model. The maintainer: it is a tuple of tensors, so move each one,
`train_coeffs = tuple(x.to('cuda') for x in train_coeffs)`, and also move `model` and `train_t`.
Stand-ins: controldiffeq's `natural_cubic_spline_coeffs` (linear pieces: a, b, two_c = three_d = 0),
`NaturalCubicSpline` and an Euler `cdeint` over the spline knots, the example's CDEFunc/NeuralCDE.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import math
import torch

def natural_cubic_spline_coeffs(t, X):
    dX = X[..., 1:, :] - X[..., :-1, :]
    dt = (t[1:] - t[:-1]).unsqueeze(-1)
    a = X[..., :-1, :]
    b = dX / dt
    two_c = torch.zeros_like(b)
    three_d = torch.zeros_like(b)
    return a, b, two_c, three_d

class NaturalCubicSpline:
    def __init__(self, times, coeffs):
        a, b, two_c, three_d = coeffs
        self._times = times
        self._a = a.unbind(-2)
        self._b = b.unbind(-2)

    def evaluate(self, index):
        return self._a[index]

    def derivative(self, index):
        return self._b[index]

def cdeint(dX_dt, z0, func, n_intervals, dt):
    z = z0
    for i in range(n_intervals):
        vector_field = func(z)
        z = z + dt * (vector_field @ dX_dt(i).unsqueeze(-1)).squeeze(-1)
    return z

class CDEFunc(torch.nn.Module):
    def __init__(self, input_channels, hidden_channels):
        super(CDEFunc, self).__init__()
        self.input_channels = input_channels
        self.hidden_channels = hidden_channels
        self.linear1 = torch.nn.Linear(hidden_channels, 128)
        self.linear2 = torch.nn.Linear(128, input_channels * hidden_channels)

    def forward(self, z):
        z = self.linear1(z).relu()
        z = self.linear2(z).tanh()
        return z.view(*z.shape[:-1], self.hidden_channels, self.input_channels)

class NeuralCDE(torch.nn.Module):
    def __init__(self, input_channels, hidden_channels, output_channels):
        super(NeuralCDE, self).__init__()
        self.func = CDEFunc(input_channels, hidden_channels)
        self.initial = torch.nn.Linear(input_channels, hidden_channels)
        self.readout = torch.nn.Linear(hidden_channels, output_channels)

    def forward(self, times, coeffs):
        spline = NaturalCubicSpline(times, coeffs)
        z0 = self.initial(spline.evaluate(0))
        n_intervals = times.shape[0] - 1
        z_T = cdeint(dX_dt=spline.derivative, z0=z0, func=self.func,
                     n_intervals=n_intervals, dt=4 * math.pi / n_intervals)
        return self.readout(z_T)

def get_data(num_timepoints=20, n=32):
    t = torch.linspace(0., 4 * math.pi, num_timepoints)
    start = torch.rand(n) * 2 * math.pi
    x_pos = torch.cos(start.unsqueeze(1) + t.unsqueeze(0)) / (1 + 0.5 * t)
    y_pos = torch.sin(start.unsqueeze(1) + t.unsqueeze(0)) / (1 + 0.5 * t)
    X = torch.stack([t.unsqueeze(0).repeat(n, 1), x_pos, y_pos], dim=2)
    y = (torch.rand(n) > 0.5).float()
    return t, X, y

train_t, train_X, train_y = get_data()
train_coeffs = natural_cubic_spline_coeffs(train_t, train_X)

device = torch.device("cuda:0")
model = NeuralCDE(input_channels=3, hidden_channels=8, output_channels=1).to(device)
train_t = train_t.to(device)
train_y = train_y.to(device)
'''
CELL = '''
pred_y = model(train_t, train_coeffs).squeeze(-1)
loss = torch.nn.functional.binary_cross_entropy_with_logits(pred_y, train_y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["train_coeffs"]
FIX = "namespace"
REFERENCE_FIX = '''
train_coeffs = tuple(x.to("cuda:0") for x in train_coeffs)
'''
REFERENCE_EDIT = None
CLEAN = False
