"""Look-alike: learn2learn's Reptile example hands one Adam state dict from learner copy to learner copy; the copies live on the GPU, Adam's `step` counters on the CPU.

Source: https://github.com/learnables/learn2learn/blob/master/examples/vision/reptile_miniimagenet.py
Each task deep-copies the on-device `model` into `learner`, builds a fresh
`torch.optim.Adam(learner.parameters(), lr=fast_lr, betas=(0, 0.999))` and loads the previous task's
`adapt_opt_state` into it, adapts on minibatches drawn with CPU `torch.randint` indices, then adds
the adapted weights into the meta-model's `.grad` (`p.grad.data.add_(-1.0, l.data)`) before
`opt.step()`. Adam's per-parameter `step` counters are CPU scalar tensors by design (the optimizer is
neither fused nor capturable); `load_state_dict` casts `exp_avg` / `exp_avg_sq` to each new learner's
device. Nothing here is misplaced.
Stand-in: the example's loop for one meta-batch of 2 tasks, `MiniImagenetCNN` as a small MLP,
random tasks instead of mini-ImageNet, `Tensor.add_(other, alpha=-1.0)` for the deprecated positional
form and `betas=(0.0, 0.999)` for `(0, 0.999)` (current torch wants two floats), no `.item()` bookkeeping or validation/test passes; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import copy
import random
import numpy as np
import torch
from torch import nn

def accuracy(predictions, targets):
    predictions = predictions.argmax(dim=1).view(targets.shape)
    return (predictions == targets).sum().float() / targets.size(0)

def fast_adapt(batch, learner, adapt_opt, loss, adaptation_steps, shots, ways, batch_size, device):
    data, labels = batch
    data, labels = data.to(device), labels.to(device)

    adaptation_indices = np.zeros(data.size(0), dtype=bool)
    adaptation_indices[np.arange(shots*ways) * 2] = True
    evaluation_indices = torch.from_numpy(~adaptation_indices)
    adaptation_indices = torch.from_numpy(adaptation_indices)
    adaptation_data, adaptation_labels = data[adaptation_indices], labels[adaptation_indices]
    evaluation_data, evaluation_labels = data[evaluation_indices], labels[evaluation_indices]

    for step in range(adaptation_steps):
        idx = torch.randint(adaptation_data.size(0), size=(batch_size, ))
        adapt_X = adaptation_data[idx]
        adapt_y = adaptation_labels[idx]
        adapt_opt.zero_grad()
        error = loss(learner(adapt_X), adapt_y)
        error.backward()
        adapt_opt.step()

    predictions = learner(evaluation_data)
    valid_error = loss(predictions, evaluation_labels)
    valid_error /= len(evaluation_data)
    valid_accuracy = accuracy(predictions, evaluation_labels)
    return valid_error, valid_accuracy

class MiniImagenetCNN(nn.Module):            # stand-in: an MLP on 3x8x8 images
    def __init__(self, ways):
        super().__init__()
        self.features = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU())
        self.classifier = nn.Linear(32, ways)

    def forward(self, x):
        return self.classifier(self.features(x))

class TaskDataset:
    def __init__(self, ways, samples):
        self.ways, self.samples = ways, samples

    def sample(self):
        return torch.rand(self.ways * self.samples, 3, 8, 8), torch.arange(self.ways).repeat_interleave(self.samples)

ways, train_shots, meta_lr, meta_bsz, fast_lr, train_bsz, train_steps = 5, 3, 1.0, 2, 0.001, 4, 2
random.seed(42); np.random.seed(42); torch.manual_seed(42)
device = torch.device('meta')   # the GPU, simulated with meta
train_tasks = TaskDataset(ways, 2 * train_shots)

model = MiniImagenetCNN(ways)
model.to(device)
opt = torch.optim.SGD(model.parameters(), meta_lr)
adapt_opt = torch.optim.Adam(model.parameters(), lr=fast_lr, betas=(0.0, 0.999))
adapt_opt_state = adapt_opt.state_dict()
loss = torch.nn.CrossEntropyLoss(reduction='mean')
'''
CELL = '''
opt.zero_grad()
for p in model.parameters():
    p.grad = torch.zeros_like(p.data)

for task in range(meta_bsz):
    learner = copy.deepcopy(model)
    adapt_opt = torch.optim.Adam(learner.parameters(), lr=fast_lr, betas=(0.0, 0.999))
    adapt_opt.load_state_dict(adapt_opt_state)
    batch = train_tasks.sample()
    evaluation_error, evaluation_accuracy = fast_adapt(batch, learner, adapt_opt, loss, train_steps,
                                                       train_shots, ways, train_bsz, device)
    adapt_opt_state = adapt_opt.state_dict()
    for p, l in zip(model.parameters(), learner.parameters()):
        p.grad.data.add_(l.data, alpha=-1.0)

for p in model.parameters():
    p.grad.data.mul_(1.0 / meta_bsz).add_(p.data)
opt.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
