"""Look-alike: muzero-general's `Trainer.update_weights` turns the numpy replay batch into tensors on the model's device and builds its helper tensors on the CPU before moving them.

Source: https://github.com/werner-duvaud/muzero-general/blob/master/trainer.py
`device = next(self.model.parameters()).device`, then every field of the sampled batch is made with
`torch.tensor(...).float().to(device)` (actions with `.long().to(device).unsqueeze(-1)`); the targets
go through `models.scalar_to_support`, which allocates `torch.zeros(...).to(x.device)` and scatters
`.long()` indices; `initial_inference` builds the zero-reward logits with `torch.zeros(1, n).scatter(...)`
on the CPU and ends with `.to(observation.device)`; `dynamics` makes the one-hot action with
`torch.zeros(...).to(action.device).float()`; priorities are computed on `.detach().cpu()` copies.
Everything that looks CPU-made is moved before it meets the network. Stand-ins: the fully connected
MuZero network from models.py (the `torch.nn.DataParallel` wrappers dropped), the loss function, and
the forward/loss part of `update_weights` (the backward pass and gradient hooks left out; priorities
kept as CPU tensors rather than numpy; the min-max scaling's `scale[scale < 1e-5] += 1e-5` written as
`clamp_min(1e-5)`, since boolean-mask indexing cannot run on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy
import torch

def mlp(input_size, layer_sizes, output_size, output_activation=torch.nn.Identity, activation=torch.nn.ELU):
    sizes = [input_size] + layer_sizes + [output_size]
    layers = []
    for i in range(len(sizes) - 1):
        act = activation if i < len(sizes) - 2 else output_activation
        layers += [torch.nn.Linear(sizes[i], sizes[i + 1]), act()]
    return torch.nn.Sequential(*layers)

def support_to_scalar(logits, support_size):
    probabilities = torch.softmax(logits, dim=1)
    support = (
        torch.tensor([x for x in range(-support_size, support_size + 1)])
        .expand(probabilities.shape)
        .float()
        .to(device=probabilities.device)
    )
    x = torch.sum(support * probabilities, dim=1, keepdim=True)
    x = torch.sign(x) * (((torch.sqrt(1 + 4 * 0.001 * (torch.abs(x) + 1 + 0.001)) - 1) / (2 * 0.001)) ** 2 - 1)
    return x

def scalar_to_support(x, support_size):
    x = torch.sign(x) * (torch.sqrt(torch.abs(x) + 1) - 1) + 0.001 * x
    x = torch.clamp(x, -support_size, support_size)
    floor = x.floor()
    prob = x - floor
    logits = torch.zeros(x.shape[0], x.shape[1], 2 * support_size + 1).to(x.device)
    logits.scatter_(2, (floor + support_size).long().unsqueeze(-1), (1 - prob).unsqueeze(-1))
    indexes = floor + support_size + 1
    prob = prob.masked_fill_(2 * support_size < indexes, 0.0)
    indexes = indexes.masked_fill_(2 * support_size < indexes, 0.0)
    logits.scatter_(2, indexes.long().unsqueeze(-1), prob.unsqueeze(-1))
    return logits

class MuZeroFullyConnectedNetwork(torch.nn.Module):
    def __init__(self, observation_size, action_space_size, encoding_size=8, support_size=10):
        super().__init__()
        self.action_space_size = action_space_size
        self.full_support_size = 2 * support_size + 1
        self.representation_network = mlp(observation_size, [16], encoding_size)
        self.dynamics_encoded_state_network = mlp(encoding_size + action_space_size, [16], encoding_size)
        self.dynamics_reward_network = mlp(encoding_size, [16], self.full_support_size)
        self.prediction_policy_network = mlp(encoding_size, [], action_space_size)
        self.prediction_value_network = mlp(encoding_size, [], self.full_support_size)

    def prediction(self, encoded_state):
        return self.prediction_policy_network(encoded_state), self.prediction_value_network(encoded_state)

    def representation(self, observation):
        encoded_state = self.representation_network(observation.view(observation.shape[0], -1))
        min_encoded_state = encoded_state.min(1, keepdim=True)[0]
        max_encoded_state = encoded_state.max(1, keepdim=True)[0]
        scale_encoded_state = (max_encoded_state - min_encoded_state).clamp_min(1e-5)
        return (encoded_state - min_encoded_state) / scale_encoded_state

    def dynamics(self, encoded_state, action):
        action_one_hot = torch.zeros((action.shape[0], self.action_space_size)).to(action.device).float()
        action_one_hot.scatter_(1, action.long(), 1.0)
        x = torch.cat((encoded_state, action_one_hot), dim=1)
        next_encoded_state = self.dynamics_encoded_state_network(x)
        reward = self.dynamics_reward_network(next_encoded_state)
        mn = next_encoded_state.min(1, keepdim=True)[0]
        mx = next_encoded_state.max(1, keepdim=True)[0]
        return (next_encoded_state - mn) / (mx - mn).clamp_min(1e-5), reward

    def initial_inference(self, observation):
        encoded_state = self.representation(observation)
        policy_logits, value = self.prediction(encoded_state)
        reward = torch.log(
            torch.zeros(1, self.full_support_size)
            .scatter(1, torch.tensor([[self.full_support_size // 2]]).long(), 1.0)
            .repeat(len(observation), 1)
            .to(observation.device)
        )
        return value, reward, policy_logits, encoded_state

    def recurrent_inference(self, encoded_state, action):
        next_encoded_state, reward = self.dynamics(encoded_state, action)
        policy_logits, value = self.prediction(next_encoded_state)
        return value, reward, policy_logits, next_encoded_state

def loss_function(value, reward, policy_logits, target_value, target_reward, target_policy):
    value_loss = (-target_value * torch.nn.LogSoftmax(dim=1)(value)).sum(1)
    reward_loss = (-target_reward * torch.nn.LogSoftmax(dim=1)(reward)).sum(1)
    policy_loss = (-target_policy * torch.nn.LogSoftmax(dim=1)(policy_logits)).sum(1)
    return value_loss, reward_loss, policy_loss

support_size, num_unroll_steps, batch_size, action_space = 10, 3, 4, 2
model = MuZeroFullyConnectedNetwork(observation_size=4, action_space_size=action_space, support_size=support_size)
model.to(torch.device("cuda:0"))      # train_on_gpu
model.train()

# ReplayBuffer.get_batch output: python lists / numpy arrays on the host
rng = numpy.random.default_rng(0)
observation_batch = [rng.standard_normal((1, 1, 4)) for _ in range(batch_size)]      # float64
action_batch = [list(rng.integers(0, action_space, num_unroll_steps + 1)) for _ in range(batch_size)]
target_value = [list(rng.standard_normal(num_unroll_steps + 1)) for _ in range(batch_size)]
target_reward = [list(rng.random(num_unroll_steps + 1)) for _ in range(batch_size)]
target_policy = [[list(rng.dirichlet([1.0] * action_space)) for _ in range(num_unroll_steps + 1)] for _ in range(batch_size)]
weight_batch = rng.random(batch_size)
gradient_scale_batch = [[num_unroll_steps] * (num_unroll_steps + 1) for _ in range(batch_size)]
'''
CELL = '''
device = next(model.parameters()).device
weight_batch_t = torch.tensor(weight_batch.copy()).float().to(device)
observation_batch_t = torch.tensor(numpy.array(observation_batch)).float().to(device)
action_batch_t = torch.tensor(action_batch).long().to(device).unsqueeze(-1)
target_value_t = torch.tensor(target_value).float().to(device)
target_reward_t = torch.tensor(target_reward).float().to(device)
target_policy_t = torch.tensor(target_policy).float().to(device)
gradient_scale_t = torch.tensor(gradient_scale_batch).float().to(device)

target_value_t = scalar_to_support(target_value_t, support_size)
target_reward_t = scalar_to_support(target_reward_t, support_size)

with torch.no_grad():
    value, reward, policy_logits, hidden_state = model.initial_inference(observation_batch_t)
    predictions = [(value, reward, policy_logits)]
    for i in range(1, action_batch_t.shape[1]):
        value, reward, policy_logits, hidden_state = model.recurrent_inference(hidden_state, action_batch_t[:, i])
        predictions.append((value, reward, policy_logits))

    value_loss, reward_loss, policy_loss = 0, 0, 0
    priorities = []
    for i, (value, reward, policy_logits) in enumerate(predictions):
        v_l, r_l, p_l = loss_function(value.squeeze(-1), reward.squeeze(-1), policy_logits,
                                      target_value_t[:, i], target_reward_t[:, i], target_policy_t[:, i])
        value_loss = value_loss + v_l / gradient_scale_t[:, i]
        reward_loss = reward_loss + (r_l / gradient_scale_t[:, i] if i > 0 else 0)
        policy_loss = policy_loss + p_l / gradient_scale_t[:, i]
        priorities.append(support_to_scalar(value, support_size).detach().cpu().squeeze())
    loss = (value_loss * 0.25 + reward_loss + policy_loss) * weight_batch_t
    loss = loss.mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
