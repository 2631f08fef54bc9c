"""Look-alike: sparse_autoencoder resamples dead neurons with CPU `dead_neuron_indices`; `AdamWithReset.reset_neurons_state` moves them to the optimizer-state device itself.

Source: https://github.com/ai-safety-foundation/sparse_autoencoder/blob/b6ba6cb7c90372cb5462855c21e5f52fc9130557/sparse_autoencoder/optimizer/adam_with_reset.py
The current `reset_neurons_state` does `neuron_indices = neuron_indices.to(device=state["exp_avg"].device)`
before the `index_fill_` calls on `exp_avg` / `exp_avg_sq` (with a components dimension:
`state["exp_avg"][component_idx].index_fill_(axis, neuron_indices, 0)`). The resampling cell also writes
new encoder rows with `weight.data[component_idx, dead_neuron_indices] = ...`, which accepts CPU indices
for a tensor on any device. CPU indices, accelerator model and state: nothing to report.
Stand-ins: a two-component SparseAutoencoder (encoder weight `[n_components, n_learned, n_input]`) and
AdamWithReset reduced to `reset_neurons_state`. SIM "meta": model and Adam state on meta, indices on CPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.optim import Adam

class SparseAutoencoder(nn.Module):
    """sparse_autoencoder.SparseAutoencoder with a components dimension, reduced."""
    def __init__(self, n_input_features, n_learned_features, n_components):
        super().__init__()
        self.tied_bias = nn.Parameter(torch.zeros(n_components, n_input_features))
        self.encoder_weight = nn.Parameter(torch.randn(n_components, n_learned_features, n_input_features) * 0.1)
        self.encoder_bias = nn.Parameter(torch.zeros(n_components, n_learned_features))
        self.decoder_weight = nn.Parameter(torch.randn(n_components, n_input_features, n_learned_features) * 0.1)
    def forward(self, x):
        x = x - self.tied_bias
        learned = torch.relu(torch.einsum("bci,cfi->bcf", x, self.encoder_weight) + self.encoder_bias)
        return learned, torch.einsum("bcf,cif->bci", learned, self.decoder_weight) + self.tied_bias

class AdamWithReset(Adam):
    """sparse_autoencoder.optimizer.adam_with_reset.AdamWithReset, reduced."""
    def __init__(self, params, lr=1e-3, *, named_parameters, has_components_dim):
        super().__init__(params, lr=lr)
        self.parameter_names = [name for name, _ in named_parameters]
        self._has_components_dim = has_components_dim

    @torch.no_grad()
    def reset_neurons_state(self, parameter, neuron_indices, axis, component_idx=0):
        state = self.state[parameter]
        if len(state) == 0:
            return
        if neuron_indices.numel() == 0:
            return

        # Move the neuron indices to the correct device
        neuron_indices = neuron_indices.to(device=state["exp_avg"].device)

        # Reset running averages for the specified neurons
        if "exp_avg" in state:
            if self._has_components_dim:
                state["exp_avg"][component_idx].index_fill_(axis, neuron_indices, 0)
            else:
                state["exp_avg"].index_fill_(axis, neuron_indices, 0)

        if "exp_avg_sq" in state:
            if self._has_components_dim:
                state["exp_avg_sq"][component_idx].index_fill_(axis, neuron_indices, 0)
            else:
                state["exp_avg_sq"].index_fill_(axis, neuron_indices, 0)

device = torch.device("meta")
model = SparseAutoencoder(n_input_features=8, n_learned_features=32, n_components=2).to(device)
optimizer = AdamWithReset(model.parameters(), named_parameters=model.named_parameters(), has_components_dim=True)

activations = torch.randn(16, 2, 8, device=device)
learned, reconstructed = model(activations)
loss = (reconstructed - activations).pow(2).mean() + learned.abs().mean()
loss.backward()
optimizer.step()
optimizer.zero_grad()

# the resampler's bookkeeping lives on the CPU
dead_neuron_indices = torch.tensor([1, 5, 17])
'''
CELL = '''
component_idx = 0
with torch.no_grad():
    new_rows = torch.randn(len(dead_neuron_indices), 8, device=device) * 0.2
    model.encoder_weight.data[component_idx, dead_neuron_indices] = new_rows
    model.encoder_bias.data[component_idx, dead_neuron_indices] = 0.0
optimizer.reset_neurons_state(model.encoder_weight, dead_neuron_indices, axis=0, component_idx=component_idx)
optimizer.reset_neurons_state(model.encoder_bias, dead_neuron_indices, axis=0, component_idx=component_idx)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
