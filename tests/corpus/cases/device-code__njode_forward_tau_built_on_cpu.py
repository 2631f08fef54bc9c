"""NJ-ODE (Neural Jump ODE) `NJODE.forward`: the time-since-last-jump `tau` is a CPU `torch.tensor`, concatenated with GPU features in `ODEFunc`.

Source: https://github.com/HerreraKrachTeichmann/NJODE/issues/14
"Expected all tensors to be on same device, need to explicitly set CPU to run": training on the GPU
fails in `ODEFunc.forward` at `input_f = torch.cat([torch.tanh(x), torch.tanh(h), tau, tdiff], dim=1)`
(... wrapper___cat); the user saw `model.to(device)` and could not find the stray. `NJODE.forward`
starts with `tau = torch.tensor([[0.0]]).repeat(batch_size, 1)` (no device); `start_X`, `h` and
`last_X` are on the GPU. Fix: create `tau` on `start_X.device`. Reduced: small FFNNs, a batch of 3
paths with 3 observations (the data loader's dict by its tensors), the `evaluate`/path outputs
dropped; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

def init_weights(m, bias=0.0):
    if type(m) == torch.nn.Linear:
        torch.nn.init.xavier_uniform_(m.weight)
        if m.bias is not None:
            m.bias.data.fill_(bias)

def compute_loss(X_obs, Y_obs, Y_obs_bj, n_obs_ot, batch_size, eps=1e-10, weight=0.5, M_obs=None):
    inner = (2*weight * torch.sqrt(torch.sum((X_obs - Y_obs) ** 2, dim=1)+eps) +
             2*(1-weight) * torch.sqrt(torch.sum((Y_obs_bj - Y_obs) ** 2, dim=1) + eps)) ** 2
    outer = torch.sum(inner / n_obs_ot)
    return outer / batch_size

def get_ffnn(input_size, output_size, nn_desc, dropout_rate, bias):
    layers = [torch.nn.Linear(input_size, nn_desc[0][0], bias=bias), torch.nn.Tanh(),
              torch.nn.Dropout(p=dropout_rate), torch.nn.Linear(nn_desc[-1][0], output_size, bias=bias)]
    return torch.nn.Sequential(*layers)

class ODEFunc(torch.nn.Module):
    def __init__(self, input_size, hidden_size, ode_nn, dropout_rate=0.0, bias=True):
        super().__init__()
        self.f = get_ffnn(input_size=input_size+hidden_size+2, output_size=hidden_size,
                          nn_desc=ode_nn, dropout_rate=dropout_rate, bias=bias)

    def forward(self, x, h, tau, tdiff):
        input_f = torch.cat([torch.tanh(x), torch.tanh(h), tau, tdiff], dim=1)
        df = self.f(input_f)
        return df

class GRUCell(torch.nn.Module):
    def __init__(self, input_size, hidden_size, bias=True):
        super().__init__()
        self.gru_d = torch.nn.GRUCell(input_size, hidden_size, bias=bias)

    def forward(self, h, X_obs, i_obs):
        temp = h.clone()
        temp[i_obs] = self.gru_d(torch.tanh(X_obs), torch.tanh(h[i_obs]))
        return temp

class FFNN(torch.nn.Module):
    def __init__(self, input_size, output_size, nn_desc, dropout_rate=0.0, bias=True):
        super().__init__()
        self.ffnn = get_ffnn(input_size, output_size, nn_desc, dropout_rate, bias)

    def forward(self, nn_input, mask=None):
        return self.ffnn(torch.tanh(nn_input))

class NJODE(torch.nn.Module):
    def __init__(self, input_size, hidden_size, output_size, ode_nn, readout_nn, enc_nn, use_rnn,
                 bias=True, dropout_rate=0, solver="euler", weight=0.5, weight_decay=1.):
        super().__init__()
        self.epoch = 1
        self.weight = weight
        self.use_rnn = use_rnn
        self.ode_f = ODEFunc(input_size, hidden_size, ode_nn, dropout_rate, bias)
        self.encoder_map = FFNN(input_size, hidden_size, enc_nn, dropout_rate, bias)
        self.readout_map = FFNN(hidden_size, output_size, readout_nn, dropout_rate, bias)
        if self.use_rnn:
            self.obs_c = GRUCell(input_size, hidden_size, bias=bias)
        self.solver = solver
        self.apply(init_weights)

    def ode_step(self, h, delta_t, current_time, last_X, tau):
        h = h + delta_t * self.ode_f(last_X, h, tau, current_time - tau)
        current_time += delta_t
        return h, current_time

    def forward(self, times, time_ptr, X, obs_idx, delta_t, T, start_X, n_obs_ot, get_loss=True):
        h = self.encoder_map(start_X)
        last_X = start_X
        batch_size = start_X.size()[0]
        tau = torch.tensor([[0.0]]).repeat(batch_size, 1)
        current_time = 0.0
        loss = 0
        for i, obs_time in enumerate(times):
            while current_time < (obs_time - 1e-10 * delta_t):
                if current_time < obs_time - delta_t:
                    delta_t_ = delta_t
                else:
                    delta_t_ = obs_time - current_time
                h, current_time = self.ode_step(h, delta_t_, current_time, last_X=last_X, tau=tau)
            start = time_ptr[i]
            end = time_ptr[i + 1]
            X_obs = X[start:end]
            i_obs = obs_idx[start:end]
            Y_bj = self.readout_map(h)
            if self.use_rnn:
                h = self.obs_c(h, X_obs, i_obs)
            else:
                temp = h.clone()
                temp[i_obs] = self.encoder_map(X_obs)
                h = temp
            Y = self.readout_map(h)
            if get_loss:
                loss = loss + compute_loss(X_obs=X_obs, Y_obs=Y[i_obs], Y_obs_bj=Y_bj[i_obs],
                                           n_obs_ot=n_obs_ot[i_obs], batch_size=batch_size, weight=self.weight)
            temp_X = last_X.clone()
            temp_tau = tau.clone()
            temp_X[i_obs] = X_obs
            temp_tau[i_obs] = obs_time.astype(np.float64)
            last_X = temp_X
            tau = temp_tau
        return h, loss

device = torch.device("meta")                  # torch.device("cuda:{}".format(gpu_num))
model = NJODE(input_size=1, hidden_size=10, output_size=1, ode_nn=((16, 'tanh'),), readout_nn=((16, 'tanh'),),
              enc_nn=((16, 'tanh'),), use_rnn=False)
model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001, weight_decay=0.0005)
delta_t, T = 0.05, 1.0
b = {"times": np.array([0.1, 0.25, 0.4]), "time_ptr": [0, 2, 3, 5],
     "X": torch.randn(5, 1), "start_X": torch.ones(3, 1),
     "obs_idx": torch.tensor([0, 2, 1, 0, 1])}         # one batch from the BlackScholes dataloader
'''
CELL = '''
optimizer.zero_grad()
times = b["times"]
time_ptr = b["time_ptr"]
X = b["X"].to(device)
start_X = b["start_X"].to(device)
obs_idx = b["obs_idx"]
b_size = start_X.size()[0]
unique_idx, counts = np.unique(obs_idx.detach().numpy(), return_counts=True)
n_obs_ot = np.zeros((b_size))
n_obs_ot[unique_idx] = counts
n_obs_ot = torch.tensor(n_obs_ot.astype(int)).to(device)
hT, loss = model(times, time_ptr, X, obs_idx, delta_t, T, start_X, n_obs_ot, get_loss=True)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("tau = torch.tensor([[0.0]]).repeat(batch_size, 1)",
                  "tau = torch.tensor([[0.0]], device=start_X.device).repeat(batch_size, 1)")
CLEAN = False
