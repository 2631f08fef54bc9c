"""Neural Lyapunov Control (inverted pendulum): counterexamples from the falsifier are appended to the samples as float64.

Source: https://github.com/YaChienChang/Neural-Lyapunov-Control/issues/4
"RuntimeError: expected scalar type Float but found Double" when running "the block of Learning and
Falsification on both the inverted pendulum and the path following notebooks", raised at
`V_candidate, u = model(x)` right after the first "Not a Lyapunov function. Found counterexample"
round. `AddCounterexamples` samples points with `np.random.uniform` inside the counterexample box
and appends them with `torch.cat((x, torch.tensor([n_pt])), 0)`: a list of numpy float64 scalars
gives a float64 tensor and the concatenation promotes the whole sample set to float64. Forks fixed
it with `torch.tensor([n_pt], dtype=torch.float)`. Stand-in: dReal's interval box and the
falsifier's answer, the pendulum dynamics and tuning term vectorised.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

class Interval:                                  # dreal.Interval
    def __init__(self, lb, ub):
        self._lb, self._ub = lb, ub
    def lb(self): return self._lb
    def ub(self): return self._ub
    def mid(self): return 0.5 * (self._lb + self._ub)

class Box:                                       # dreal.Box returned by CheckSatisfiability
    def __init__(self, intervals):
        self.intervals = intervals
    def size(self): return len(self.intervals)
    def __getitem__(self, i): return self.intervals[i]

def CheckLyapunov(x, f, V, ball_lb, ball_ub, config, epsilon):
    return Box([Interval(-5.6080, -5.6074), Interval(0.9743, 0.9746)])   # the counterexample it found

def AddCounterexamples(x, CE, N):
    # Adding CE back to sample set
    c = []
    nearby = []
    for i in range(CE.size()):
        c.append(CE[i].mid())
        lb = CE[i].lb()
        ub = CE[i].ub()
        nearby_ = np.random.uniform(lb, ub, N)
        nearby.append(nearby_)
    for i in range(N):
        n_pt = []
        for j in range(x.shape[1]):
            n_pt.append(nearby[j][i])
        x = torch.cat((x, torch.tensor([n_pt])), 0)
    return x

def dtanh(s):
    return 1.0 - s ** 2

def Tune(x):
    return (x ** 2).sum(dim=1, keepdim=True)     # circle function values

G, L_, m, b = 9.81, 0.5, 0.15, 0.1
def f_value(x, u):
    return torch.stack([x[:, 1], (m * G * L_ * torch.sin(x[:, 0]) - b * x[:, 1]) / (m * L_ ** 2)
                        + u[:, 0] / (m * L_ ** 2)], dim=1)

class Net(torch.nn.Module):
    def __init__(self, n_input, n_hidden, n_output, lqr):
        super(Net, self).__init__()
        torch.manual_seed(2)
        self.layer1 = torch.nn.Linear(n_input, n_hidden)
        self.layer2 = torch.nn.Linear(n_hidden, n_output)
        self.control = torch.nn.Linear(n_input, 1, bias=False)
        self.control.weight = torch.nn.Parameter(lqr)

    def forward(self, x):
        sigmoid = torch.nn.Tanh()
        h_1 = sigmoid(self.layer1(x))
        out = sigmoid(self.layer2(h_1))
        u = self.control(x)
        return out, u

N, D_in, H1, D_out = 500, 2, 6, 1
torch.manual_seed(10)
x = torch.Tensor(N, D_in).uniform_(-6, 6)
x_0 = torch.zeros([1, 2])
ball_lb, ball_ub, epsilon, config = 0.5, 6.0, 0, None
'''
CELL = '''
valid = False
lqr = torch.tensor([[-23.58639732, -5.31421063]])
model = Net(D_in, H1, D_out, lqr)
i = 0
max_iters = 20
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
while i < max_iters and not valid:
    V_candidate, u = model(x)
    X0, u0 = model(x_0)
    f = f_value(x, u)
    Circle_Tuning = Tune(x)
    L_V = torch.diagonal(torch.mm(torch.mm(torch.mm(dtanh(V_candidate), model.layer2.weight)
                         * dtanh(torch.tanh(torch.mm(x, model.layer1.weight.t()) + model.layer1.bias)),
                         model.layer1.weight), f.t()), 0)
    Lyapunov_risk = (F.relu(-V_candidate) + 1.5 * F.relu(L_V + 0.5)).mean() \\
        + 2.2 * ((Circle_Tuning - 6 * V_candidate).pow(2)).mean() + (X0).pow(2)
    optimizer.zero_grad()
    Lyapunov_risk.sum().backward()
    optimizer.step()
    # Falsification
    if i % 10 == 0:
        result = CheckLyapunov(x, f, V_candidate, ball_lb, ball_ub, config, epsilon)
        if result:
            x = AddCounterexamples(x, result, 10)
        else:
            valid = True
    i += 1
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type Float but found Double",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["x"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("x = torch.cat((x, torch.tensor([n_pt])), 0)",
                  "x = torch.cat((x, torch.tensor([n_pt], dtype=torch.float)), 0)")
CLEAN = False
