"""Look-alike: Rockpool's `StepPWL` spike function called with its default CPU tensor threshold on cuda membranes.

Source: https://rockpool.ai/_modules/nn/modules/torch/lif_torch.html
`StepPWL.forward(ctx, x, threshold=torch.tensor(1.0), window=torch.tensor(0.5),
max_spikes_per_dt=torch.tensor(2.0**16))` builds its defaults once, on the CPU, as 0-dim tensors;
`LIFTorch` runs it on membrane potentials that live on the GPU. `(x >= threshold) * torch.floor(x /
threshold)` and the clamp against `max_spikes_per_dt` mix a cuda tensor with 0-dim CPU tensors,
which PyTorch allows. It runs.
Stand-in: `StepPWL` (forward as in the module) and a reduced LIF evolve loop over time.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class StepPWL(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, threshold=torch.tensor(1.0), window=torch.tensor(0.5),
                max_spikes_per_dt=torch.tensor(2.0**16)):
        ctx.save_for_backward(x, threshold)
        ctx.window = window
        nr_spikes = ((x >= threshold) * torch.floor(x / threshold)).float()
        clamp_bool = (nr_spikes > max_spikes_per_dt).float()
        nr_spikes -= (nr_spikes - max_spikes_per_dt.float()) * clamp_bool
        return nr_spikes

    @staticmethod
    def backward(ctx, grad_output):
        x, threshold = ctx.saved_tensors
        mask = x >= (threshold - ctx.window)
        return grad_output / threshold * mask, None, None, None

device = torch.device("cuda:0")
n_batches, T, n_neurons = 4, 20, 8
alpha, beta = 0.9, 0.8
input_data = torch.rand(n_batches, T, n_neurons, device=device) * 2
vmem = torch.zeros(n_batches, n_neurons, device=device)
isyn = torch.zeros(n_batches, n_neurons, device=device)
'''
CELL = '''
spikes = []
for t in range(T):
    isyn = beta * isyn + input_data[:, t]
    vmem = alpha * vmem + isyn
    spk = StepPWL.apply(vmem)
    vmem = vmem - spk
    spikes.append(spk)
out = torch.stack(spikes, dim=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
