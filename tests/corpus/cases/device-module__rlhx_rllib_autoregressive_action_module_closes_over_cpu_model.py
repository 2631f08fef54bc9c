"""RLlib PPO with the torch autoregressive action model on a GPU: the `_ActionModel` closure reaches the CPU original's `a1_logits`.

Source: https://github.com/ray-project/ray/issues/25253
With `num_gpus` > 0 the autoregressive example (`rllib/examples/autoregressive_action_dist.py`,
`framework="torch"`, PPO) fails with a device mismatch, and only on GPU. The reporter traced it:
in `TorchBinaryAutoregressiveDistribution._a1_distribution` the inputs, `self.model` and
`self.model.action_module` are on CUDA, "but when running into self.model.action_module, the
parameters of the external class have changed to be on the CPU": `_ActionModel.forward` calls
`self.a1_logits`, where `self` is the closure over the *original* model, not the GPU copy that
`TorchPolicy` makes with `copy.deepcopy(model).to(device)`. Reference fix, following that cause: the
action module calls a layer it owns (`self_.a1_logits`, registered on the module) instead of the
closed-over original.
Stand-ins: SlimFC, TorchPolicy's GPU tower copy, the distribution's deterministic_sample.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import copy
import torch
from torch import nn

class SlimFC(nn.Module):
    def __init__(self, in_size, out_size, activation_fn=None):
        super().__init__()
        layers = [nn.Linear(in_size, out_size)]
        if activation_fn is not None:
            layers.append(activation_fn())
        self._model = nn.Sequential(*layers)

    def forward(self, x):
        return self._model(x)

class TorchAutoregressiveActionModel(nn.Module):
    def __init__(self, obs_size=4, num_outputs=16):
        super().__init__()
        self.context_layer = SlimFC(obs_size, num_outputs, activation_fn=nn.Tanh)
        self.value_branch = SlimFC(num_outputs, 1)
        # P(a1 | obs)
        self.a1_logits = SlimFC(num_outputs, 2)

        class _ActionModel(nn.Module):
            def __init__(self):
                nn.Module.__init__(self)
                self.a2_hidden = SlimFC(1, 16, activation_fn=nn.Tanh)
                self.a2_logits = SlimFC(16, 2)

            def forward(self_, ctx_input, a1_input):
                a1_logits = self.a1_logits(ctx_input)
                a2_logits = self_.a2_logits(self_.a2_hidden(a1_input))
                return a1_logits, a2_logits

        self.action_module = _ActionModel()
        self._context = None

    def forward(self, input_dict, state, seq_lens):
        self._context = self.context_layer(input_dict["obs"])
        return self._context, state

class TorchCategorical:
    def __init__(self, logits):
        self.logits = logits

    def deterministic_sample(self):
        return self.logits.argmax(dim=1)

class TorchBinaryAutoregressiveDistribution:
    def __init__(self, inputs, model):
        self.inputs = inputs
        self.model = model

    def deterministic_sample(self):
        a1_dist = self._a1_distribution()
        a1 = a1_dist.deterministic_sample()
        a2_dist = self._a2_distribution(a1)
        a2 = a2_dist.deterministic_sample()
        return a1, a2

    def _a1_distribution(self):
        BATCH = self.inputs.shape[0]
        zeros = torch.zeros((BATCH, 1)).to(self.inputs.device)
        a1_logits, _ = self.model.action_module(self.inputs, zeros)
        return TorchCategorical(a1_logits)

    def _a2_distribution(self, a1):
        a1_vec = torch.unsqueeze(a1.float(), 1)
        _, a2_logits = self.model.action_module(self.inputs, a1_vec)
        return TorchCategorical(a2_logits)

class TorchPolicy:
    def __init__(self, model, num_gpus=1):
        self.devices = [torch.device("cuda:%d" % i) for i in range(num_gpus)]
        # one copy of the model per GPU tower; `model` itself stays on the CPU
        self.model_gpu_towers = [copy.deepcopy(model).to(d) for d in self.devices]
        self.model = self.model_gpu_towers[0]
        self.dist_class = TorchBinaryAutoregressiveDistribution

    def compute_actions(self, obs_batch):
        with torch.no_grad():
            dist_inputs, _ = self.model({"obs": obs_batch}, [], None)
            action_dist = self.dist_class(dist_inputs, self.model)
            return action_dist.deterministic_sample()

model = TorchAutoregressiveActionModel()
policy = TorchPolicy(model, num_gpus=1)
obs_batch = torch.randn(8, 4, device="cuda:0")      # CorrelatedActionsEnv observations on the policy device
'''
CELL = '''
a1, a2 = policy.compute_actions(obs_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy.model.action_module"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        class _ActionModel(nn.Module):
            def __init__(self):
                nn.Module.__init__(self)
                self.a2_hidden = SlimFC(1, 16, activation_fn=nn.Tanh)
                self.a2_logits = SlimFC(16, 2)

            def forward(self_, ctx_input, a1_input):
                a1_logits = self.a1_logits(ctx_input)
                a2_logits = self_.a2_logits(self_.a2_hidden(a1_input))
                return a1_logits, a2_logits

        self.action_module = _ActionModel()
""", """        class _ActionModel(nn.Module):
            def __init__(self_, a1_logits):
                nn.Module.__init__(self_)
                self_.a1_logits = a1_logits
                self_.a2_hidden = SlimFC(1, 16, activation_fn=nn.Tanh)
                self_.a2_logits = SlimFC(16, 2)

            def forward(self_, ctx_input, a1_input):
                a1_logits = self_.a1_logits(ctx_input)
                a2_logits = self_.a2_logits(self_.a2_hidden(a1_input))
                return a1_logits, a2_logits

        self.action_module = _ActionModel(self.a1_logits)
""")
CLEAN = False
