"""sbi `CategoricalMADE` keeps its logit mask as a plain tensor attribute (`self.mask = torch.zeros(...)`), so `.to("cuda")` leaves it on the CPU.

Source: https://github.com/sbi-dev/sbi/pull/1448
"fix: gpu-handling for made and leakage correction": "during GPU tests a couple of bugs appeared,
mostly for the new `CategoricalMADE`." `CategoricalMADE.__init__` built
`self.mask = torch.zeros(num_variables, num_categories)` as an ordinary attribute, and `forward`
ends with `out.masked_fill(~self.mask.bool().flatten(), float("-inf"))`, so a mass estimator moved
to the GPU mixed CUDA logits with a CPU mask. The PR first overrode `to()` "to move self.mask along
with the model"; on review the mask became a registered buffer. (The same PR gave `MADEWrapper`'s
dummy input `device=inputs.device`; that part is already applied here.)
Stand-in: sbi's `CategoricalMADE`/`CategoricalMassEstimator` and `MADEWrapper` with nflows' MADE
reduced to a context-conditioned MLP (no autoregressive weight masks); `num_categories` given as
a list of ints (a tensor in sbi); `outputs[..., m:]` written `outputs.narrow(...)` and
`~mask` written `torch.logical_not(mask)` (both fail on simulated cuda tensors); sizes small.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import Tensor, nn
from torch.distributions import Categorical
from torch.nn import functional as F

class MADE(nn.Module):
    """Stand-in for nflows' MADE: an MLP on (inputs, context) with `output_multiplier` outputs per feature."""
    def __init__(self, features, hidden_features, context_features=None, num_blocks=2,
                 output_multiplier=1, use_residual_blocks=True, random_mask=False,
                 activation=F.relu, dropout_probability=0.0, use_batch_norm=False):
        super().__init__()
        self.initial_layer = nn.Linear(features, hidden_features)
        self.context_layer = nn.Linear(context_features, hidden_features) if context_features else None
        self.blocks = nn.ModuleList([nn.Linear(hidden_features, hidden_features) for _ in range(num_blocks)])
        self.final_layer = nn.Linear(hidden_features, features * output_multiplier)
        self.activation = activation

    def forward(self, inputs, context=None):
        h = self.initial_layer(inputs)
        if self.context_layer is not None:
            h = h + self.context_layer(context)
        for block in self.blocks:
            h = h + block(self.activation(h))
        return self.final_layer(self.activation(h))

class MADEWrapper(MADE):
    def __init__(self, features, hidden_features, context_features=None, num_blocks=2,
                 output_multiplier=1, use_residual_blocks=True, random_mask=False,
                 activation=F.relu, dropout_probability=0.0, use_batch_norm=False):
        super().__init__(features + 1, hidden_features, context_features, num_blocks,
                         output_multiplier, use_residual_blocks, random_mask, activation,
                         dropout_probability, use_batch_norm)
        self.output_multiplier = output_multiplier

    def forward(self, inputs, context=None):
        # add dummy input to ensure all dims conditioned on context.
        dummy_input = torch.zeros((inputs.shape[:-1] + (1,)), device=inputs.device)
        concat_input = torch.cat((dummy_input, inputs), dim=-1)
        outputs = super().forward(concat_input, context)
        return outputs.narrow(-1, self.output_multiplier, outputs.shape[-1] - self.output_multiplier)

class CategoricalMADE(MADEWrapper):
    def __init__(self, num_categories: Tensor, num_hidden_features: int,
                 num_context_features=None, num_blocks=2, use_residual_blocks=True,
                 random_mask=False, activation=F.relu, dropout_probability=0.0,
                 use_batch_norm=False, epsilon=1e-2, embedding_net: nn.Module = nn.Identity()):
        self.num_variables = len(num_categories)
        self.num_categories = int(max(num_categories))
        self.mask = torch.zeros(self.num_variables, self.num_categories)
        for i, c in enumerate(num_categories):
            self.mask[i, :c] = 1

        super().__init__(
            features=self.num_variables,
            hidden_features=num_hidden_features,
            context_features=num_context_features,
            num_blocks=num_blocks,
            output_multiplier=self.num_categories,
            use_residual_blocks=use_residual_blocks,
            random_mask=random_mask,
            activation=activation,
            dropout_probability=dropout_probability,
            use_batch_norm=use_batch_norm,
        )

        self.embedding_net = embedding_net
        self.hidden_features = num_hidden_features
        self.epsilon = epsilon
        self.context_features = num_context_features

    def forward(self, input: Tensor, condition=None) -> Tensor:
        embedded_condition = self.embedding_net.forward(condition)
        out = super().forward(input, context=embedded_condition)
        # masks out logits i.e. for variables with num_categories < max(num_categories)
        return out.masked_fill(torch.logical_not(self.mask.bool().flatten()), float("-inf"))

    def log_prob(self, input: Tensor, condition=None) -> Tensor:
        outputs = self.forward(input, condition=condition)
        outputs = outputs.reshape(*input.shape, self.num_categories)
        log_prob = Categorical(logits=outputs, validate_args=False).log_prob(input).sum(dim=-1)
        return log_prob

class CategoricalMassEstimator(nn.Module):
    def __init__(self, net: CategoricalMADE, input_shape: torch.Size, condition_shape: torch.Size):
        super().__init__()
        self.net = net
        self.input_shape = input_shape
        self.condition_shape = condition_shape
        self.num_categories = net.num_categories

    def log_prob(self, input: Tensor, condition: Tensor, **kwargs) -> Tensor:
        return self.net.log_prob(input, condition, **kwargs)

device = "cuda:0"
net = CategoricalMADE(num_categories=[3, 2], num_hidden_features=16,
                      num_context_features=4)
density_estimator = CategoricalMassEstimator(net, input_shape=torch.Size([2]),
                                             condition_shape=torch.Size([4]))
density_estimator.to(device)
theta = torch.randn(50, 4).to(device)
x = torch.stack([torch.randint(0, 3, (50,)), torch.randint(0, 2, (50,))], dim=-1).float().to(device)
'''
CELL = '''
log_probs = density_estimator.log_prob(x.unsqueeze(0), theta)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["density_estimator.net.mask"]
FIX = "namespace"
REFERENCE_FIX = '''
density_estimator.net.mask = density_estimator.net.mask.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
