"""sparse_autoencoder `AdamWithReset.reset_neurons_state` runs `state["exp_avg"].index_fill_(axis, neuron_indices, 0)` with CPU indices on GPU optimizer state.

Source: https://github.com/ai-safety-foundation/sparse_autoencoder/pull/174
"Ensure that the adam reset indices are on the correct device": when dead neurons are resampled, the
optimizer's running averages for those neurons are zeroed with `index_fill_`. The neuron indices arrive
on the CPU (the repo's own test passes `torch.tensor([1])`) while the Adam state lives with the
parameters on the accelerator, so `index_fill_` mixes devices. The merged fix adds
`neuron_indices = neuron_indices.to(device=state["exp_avg"].device)` inside the method.
Stand-ins: SparseAutoencoder reduced to a tied-bias encoder/decoder, AdamWithReset reduced to the
no-components path of `reset_neurons_state`. SIM "meta": the model and its Adam state on the meta
device, the indices on the CPU (on meta PyTorch words the error "... expected to be in the same device").
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn
from torch.optim import Adam

class SparseAutoencoder(nn.Module):
    """sparse_autoencoder.SparseAutoencoder, reduced."""
    def __init__(self, n_input_features, n_learned_features):
        super().__init__()
        self.tied_bias = nn.Parameter(torch.zeros(n_input_features))
        self.encoder = nn.Linear(n_input_features, n_learned_features)
        self.decoder = nn.Linear(n_learned_features, n_input_features, bias=False)
    def forward(self, x):
        learned_activations = torch.relu(self.encoder(x - self.tied_bias))
        return learned_activations, self.decoder(learned_activations) + self.tied_bias

class AdamWithReset(Adam):
    """sparse_autoencoder.optimizer.adam_with_reset.AdamWithReset, reduced."""
    def __init__(self, params, lr=1e-3, *, named_parameters):
        super().__init__(params, lr=lr)
        self.parameter_names = [name for name, _ in named_parameters]

    @torch.no_grad()
    def reset_neurons_state(self, parameter, neuron_indices, axis):
        # Get the state of the parameter
        state = self.state[parameter]

        # Check if state is initialized
        if len(state) == 0:
            return

        # Check there are any neurons to reset
        if neuron_indices.numel() == 0:
            return

        # Reset running averages for the specified neurons
        if "exp_avg" in state:
            state["exp_avg"].index_fill_(axis, neuron_indices, 0)

        if "exp_avg_sq" in state:
            state["exp_avg_sq"].index_fill_(axis, neuron_indices, 0)

device = torch.device("meta")
model = SparseAutoencoder(n_input_features=8, n_learned_features=32).to(device)
optimizer = AdamWithReset(model.parameters(), named_parameters=model.named_parameters())

# one training step so the Adam state exists
activations = torch.randn(16, 8, device=device)
learned, reconstructed = model(activations)
loss = (reconstructed - activations).pow(2).mean() + learned.abs().mean()
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
CELL = '''
optimizer.reset_neurons_state(model.encoder.weight, torch.tensor([1]), axis=0)
optimizer.reset_neurons_state(model.encoder.bias, torch.tensor([1]), axis=0)
'''
EXPECT_ERROR = "same device"   # cuda: "Expected all tensors to be on the same device"; meta: "index_copy(): ... expected to be in the same device"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        # Reset running averages for the specified neurons\n",
    "        # Move the neuron indices to the correct device\n"
    "        neuron_indices = neuron_indices.to(device=state[\"exp_avg\"].device)\n\n"
    "        # Reset running averages for the specified neurons\n",
)
CLEAN = False
