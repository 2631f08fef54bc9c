"""Look-alike: LightZero's MuZero collect step keeps the value support in a plain helper object (not a module) and hands the root predictions to the tree search on the CPU.

Source: https://github.com/opendilab/LightZero/blob/main/lzero/policy/muzero.py
`_init_learn` builds `self.value_support = DiscreteSupport(*cfg.model.value_support_range, cfg.device)`
(`torch.arange(...).unsqueeze(0).to(device)`) and wraps it in `InverseScalarTransform`, a plain object
holding `self.value_support = scalar_support.arange`, which `Module.to()` never sees; it is right because
it was made on `cfg.device`. The collector (lzero/worker/muzero_collector.py) stacks numpy observations
with `prepare_observation` and sends them with `torch.from_numpy(...).to(self.policy_config.device)`;
`_forward_collect` then moves `pred_values`, `latent_state_roots` and `policy_logits` to the CPU on
purpose (`.detach().cpu()`) for the C++/Python MCTS, and `_compute_priorities` rebuilds tensors from the
numpy value lists with `torch.from_numpy(np.array(...)).to(device).float()`.
Stand-ins: `DiscreteSupport`, `InverseScalarTransform`, `prepare_observation`, a small MLP
`MuZeroModelMLP` with `initial_inference`, and a policy/collector holding only the collect step
(outputs kept as CPU tensors rather than numpy; the tree search itself omitted).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import namedtuple
import numpy as np
import torch
from torch import nn
from torch.nn import L1Loss

MZNetworkOutput = namedtuple("MZNetworkOutput", ["value", "reward", "policy_logits", "latent_state"])

class DiscreteSupport(object):
    def __init__(self, start, stop, step=1., device='cpu'):
        assert start < stop
        self.arange = torch.arange(start, stop, step, dtype=torch.float32).unsqueeze(0).to(device)
        self.size = self.arange.shape[1]
        self.step = step

class InverseScalarTransform:
    def __init__(self, scalar_support, categorical_distribution=True):
        self.value_support = scalar_support.arange
        self.categorical_distribution = categorical_distribution

    def __call__(self, logits, epsilon=0.001):
        if self.categorical_distribution:
            value_probs = torch.softmax(logits, dim=1)
            value = value_probs.mul_(self.value_support).sum(1, keepdim=True)
        else:
            value = logits
        tmp = ((torch.sqrt(1 + 4 * epsilon * (torch.abs(value) + 1 + epsilon)) - 1) / (2 * epsilon))
        return torch.sign(value) * (tmp * tmp - 1)

def prepare_observation(observation_list, model_type='conv'):
    observation_array = np.array(observation_list)
    batch_size = observation_array.shape[0]
    if model_type in ['mlp', 'mlp_context']:
        observation_array = observation_array.reshape(batch_size, -1)
    return observation_array

class MuZeroModelMLP(nn.Module):
    def __init__(self, observation_shape, action_space_size, latent_state_dim=32, support_size=601):
        super().__init__()
        self.representation_network = nn.Sequential(nn.Linear(observation_shape, latent_state_dim), nn.LayerNorm(latent_state_dim))
        self.policy_head = nn.Linear(latent_state_dim, action_space_size)
        self.value_head = nn.Linear(latent_state_dim, support_size)

    def initial_inference(self, obs):
        batch_size = obs.size(0)
        latent_state = self.representation_network(obs)
        policy_logits, value = self.policy_head(latent_state), self.value_head(latent_state)
        return MZNetworkOutput(value, [0. for _ in range(batch_size)], policy_logits, latent_state)

def mz_network_output_unpack(network_output):
    return network_output.latent_state, network_output.reward, network_output.value, network_output.policy_logits

class MuZeroPolicy:
    def __init__(self, cfg, model):
        self._cfg = cfg
        self._model = model
        self._collect_model = model
        self.value_support = DiscreteSupport(*cfg["value_support_range"], cfg["device"])
        self.value_inverse_scalar_transform_handle = InverseScalarTransform(self.value_support, True)

    def _forward_collect(self, data, action_mask):
        self._collect_model.eval()
        with torch.no_grad():
            network_output = self._collect_model.initial_inference(data)
            latent_state_roots, reward_roots, pred_values, policy_logits = mz_network_output_unpack(network_output)
            pred_values = self.value_inverse_scalar_transform_handle(pred_values).detach().cpu()
            latent_state_roots = latent_state_roots.detach().cpu()
            policy_logits = policy_logits.detach().cpu()
            legal_actions = [np.nonzero(action_mask[j])[0].tolist() for j in range(data.shape[0])]
        return {"pred_value": pred_values, "latent_state_roots": latent_state_roots,
                "policy_logits": policy_logits, "legal_actions": legal_actions}

cfg = {"device": "cuda:0", "value_support_range": (-300., 301., 1.), "model_type": "mlp"}
model = MuZeroModelMLP(observation_shape=8, action_space_size=4)
model.to(cfg["device"])
policy = MuZeroPolicy(cfg, model)

collector_env_num = 3
rng = np.random.default_rng(0)
stack_obs_list = [rng.standard_normal((1, 8)).astype(np.float32) for _ in range(collector_env_num)]   # lunarlander, 1 frame
action_mask = [np.ones(4, dtype=np.int8) for _ in range(collector_env_num)]
pred_values_lst = [list(rng.standard_normal(5)) for _ in range(collector_env_num)]                    # floats kept per env
search_values_lst = [list(rng.standard_normal(5)) for _ in range(collector_env_num)]
'''
CELL = '''
stack_obs_array = np.array(stack_obs_list)
stack_obs_tensor = prepare_observation(stack_obs_array, cfg["model_type"])
stack_obs_tensor = torch.from_numpy(stack_obs_tensor).to(cfg["device"])
output = policy._forward_collect(stack_obs_tensor, action_mask)

priorities = []
for i in range(collector_env_num):
    pred_values = torch.from_numpy(np.array(pred_values_lst[i])).to(cfg["device"]).float().view(-1)
    search_values = torch.from_numpy(np.array(search_values_lst[i])).to(cfg["device"]).float().view(-1)
    priorities.append(L1Loss(reduction='none')(pred_values, search_values).detach().cpu() + 1e-6)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
