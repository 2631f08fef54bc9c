"""Look-alike: Torchmeta's MAML example accumulates the outer loss in tensors it creates with `device=args.device`, and adapts with an OrderedDict of fast weights.

Source: https://github.com/tristandeleu/pytorch-meta/blob/master/examples/maml/train.py
The training loop moves each `BatchMetaDataLoader` batch to `args.device`, builds
`outer_loss = torch.tensor(0., device=args.device)` and `accuracy = torch.tensor(0., device=args.device)`
as accumulators, and runs the query set through the model with `params=params`, an OrderedDict of
adapted tensors returned by `gradient_update_parameters` (derived from the model's own parameters,
so on the model's device); `step_size` is a plain float. Nothing is left on the CPU.
Stand-in: Torchmeta's `MetaModule` / `MetaSequential` / `MetaConv2d` / `MetaBatchNorm2d` /
`MetaLinear` and `gradient_update_parameters` reduced to what the example uses, the example's
`ConvolutionalNeuralNetwork` (2 conv blocks, 8 channels) and `get_accuracy`, a random 5-way batch of 2
tasks instead of Omniglot, one meta-batch, no tqdm / `accuracy.item()` progress bar; the GPU is
simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import re
import argparse
from collections import OrderedDict
import torch
import torch.nn as nn
import torch.nn.functional as F

class MetaModule(nn.Module):
    def meta_named_parameters(self, prefix='', recurse=True):
        gen = self._named_members(
            lambda module: module._parameters.items() if isinstance(module, MetaModule) else [],
            prefix=prefix, recurse=recurse)
        for elem in gen:
            yield elem

    def get_subdict(self, params, key=None):
        if params is None:
            return None
        key_re = re.compile(r'^{0}\\.(.+)'.format(re.escape(key)))
        return OrderedDict((key_re.sub(r'\\1', k), v) for k, v in params.items() if key_re.match(k))

class MetaSequential(nn.Sequential, MetaModule):
    def forward(self, input, params=None):
        for name, module in self._modules.items():
            if isinstance(module, MetaModule):
                input = module(input, params=self.get_subdict(params, name))
            else:
                input = module(input)
        return input

class MetaConv2d(nn.Conv2d, MetaModule):
    def forward(self, input, params=None):
        if params is None:
            params = OrderedDict(self.named_parameters())
        return self._conv_forward(input, params['weight'], params.get('bias', None))

class MetaBatchNorm2d(nn.BatchNorm2d, MetaModule):
    def forward(self, input, params=None):
        if params is None:
            params = OrderedDict(self.named_parameters())
        return F.batch_norm(input, self.running_mean, self.running_var, params.get('weight', None),
                            params.get('bias', None), self.training or not self.track_running_stats,
                            self.momentum, self.eps)

class MetaLinear(nn.Linear, MetaModule):
    def forward(self, input, params=None):
        if params is None:
            params = OrderedDict(self.named_parameters())
        return F.linear(input, params['weight'], params.get('bias', None))

def gradient_update_parameters(model, loss, params=None, step_size=0.5, first_order=False):
    if params is None:
        params = OrderedDict(model.meta_named_parameters())
    grads = torch.autograd.grad(loss, params.values(), create_graph=not first_order)
    updated_params = OrderedDict()
    for (name, param), grad in zip(params.items(), grads):
        updated_params[name] = param - step_size * grad
    return updated_params

def conv3x3(in_channels, out_channels, **kwargs):
    return MetaSequential(
        MetaConv2d(in_channels, out_channels, kernel_size=3, padding=1, **kwargs),
        MetaBatchNorm2d(out_channels, momentum=1., track_running_stats=False),
        nn.ReLU(),
        nn.MaxPool2d(2)
    )

class ConvolutionalNeuralNetwork(MetaModule):
    def __init__(self, in_channels, out_features, hidden_size=64):
        super(ConvolutionalNeuralNetwork, self).__init__()
        self.in_channels = in_channels
        self.out_features = out_features
        self.hidden_size = hidden_size
        self.features = MetaSequential(
            conv3x3(in_channels, hidden_size),
            conv3x3(hidden_size, hidden_size),
        )
        self.classifier = MetaLinear(hidden_size * 7 * 7, out_features)

    def forward(self, inputs, params=None):
        features = self.features(inputs, params=self.get_subdict(params, 'features'))
        features = features.view((features.size(0), -1))
        logits = self.classifier(features, params=self.get_subdict(params, 'classifier'))
        return logits

def get_accuracy(logits, targets):
    _, predictions = torch.max(logits, dim=-1)
    return torch.mean(predictions.eq(targets).float())

def sample_batch(batch_size, ways, shots, test_shots):      # one BatchMetaDataLoader batch (CPU)
    def split(k):
        inputs = torch.rand(batch_size, ways * k, 1, 28, 28)
        targets = torch.arange(ways).repeat_interleave(k).expand(batch_size, -1).clone()
        return inputs, targets
    return {'train': split(shots), 'test': split(test_shots)}

args = argparse.Namespace(num_shots=1, num_ways=5, first_order=False, step_size=0.4, hidden_size=8,
                          batch_size=2, device=torch.device('meta'))   # the GPU, simulated with meta
model = ConvolutionalNeuralNetwork(1, args.num_ways, hidden_size=args.hidden_size)
model.to(device=args.device)
model.train()
meta_optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
batch = sample_batch(args.batch_size, args.num_ways, args.num_shots, test_shots=3)
'''
CELL = '''
model.zero_grad()

train_inputs, train_targets = batch['train']
train_inputs = train_inputs.to(device=args.device)
train_targets = train_targets.to(device=args.device)

test_inputs, test_targets = batch['test']
test_inputs = test_inputs.to(device=args.device)
test_targets = test_targets.to(device=args.device)

outer_loss = torch.tensor(0., device=args.device)
accuracy = torch.tensor(0., device=args.device)
for task_idx, (train_input, train_target, test_input,
        test_target) in enumerate(zip(train_inputs, train_targets,
        test_inputs, test_targets)):
    train_logit = model(train_input)
    inner_loss = F.cross_entropy(train_logit, train_target)

    model.zero_grad()
    params = gradient_update_parameters(model,
                                        inner_loss,
                                        step_size=args.step_size,
                                        first_order=args.first_order)

    test_logit = model(test_input, params=params)
    outer_loss += F.cross_entropy(test_logit, test_target)

    with torch.no_grad():
        accuracy += get_accuracy(test_logit, test_target)

outer_loss.div_(args.batch_size)
accuracy.div_(args.batch_size)

outer_loss.backward()
meta_optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
