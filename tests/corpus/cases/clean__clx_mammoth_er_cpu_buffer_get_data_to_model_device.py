"""Look-alike: mammoth's Experience Replay keeps its reservoir `Buffer` on the CPU and moves each replayed batch to the model's device in `get_data`.

Source: https://github.com/aimagelab/mammoth/blob/master/utils/buffer.py (Buffer, ReservoirSampling)
and https://github.com/aimagelab/mammoth/blob/master/models/er.py (Er.observe)
`Buffer(buffer_size, device="cpu")` stores examples and labels in CPU tensors on purpose (the
docstring: data are moved to the CPU for PIL transforms anyway), while the backbone lives on
`get_device()` (cuda:0). `Er.observe` asks for `get_data(minibatch_size, transform=...,
device=self.device)`, which moves the sampled examples and labels to cuda:0 before the `torch.cat`
with the current batch, and `add_data` copies new samples back with `.to(self.device)` (CPU).
Nothing is misplaced. Stand-ins: `ContinualModel`/`Er` without the optimizer step and backward
(fake cuda has no autograd), `Buffer` with the reservoir strategy only (`add_data` walks
`unbind(0)` instead of `examples[i]`, and `labels[:real_batch_size]` is written `narrow`), a small MLP for the ResNet-18 backbone; the buffer holds a
previous task's samples from SETUP.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from argparse import Namespace
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class ReservoirSampling:
    def __init__(self, buffer_size, device):
        self.buffer_size = buffer_size
        self.device = device

    def __call__(self, num_seen_examples):
        if num_seen_examples < self.buffer_size:
            return num_seen_examples
        rand = np.random.randint(0, num_seen_examples + 1)
        if rand < self.buffer_size:
            return rand
        return -1

class Buffer:
    def __init__(self, buffer_size, device="cpu", sample_selection_strategy='reservoir'):
        self._buffer_size = buffer_size
        self.device = device
        self.num_seen_examples = 0
        self.attributes = ['examples', 'labels', 'logits', 'task_labels', 'true_labels']
        self.sample_selection_strategy = sample_selection_strategy
        self.sample_selection_fn = ReservoirSampling(buffer_size, device)

    def __len__(self):
        return min(self.num_seen_examples, self._buffer_size)

    def is_empty(self):
        return self.num_seen_examples == 0

    def init_tensors(self, examples, labels, logits, task_labels, true_labels):
        for attr_str in self.attributes:
            attr = eval(attr_str)
            if attr is not None and not hasattr(self, attr_str):
                typ = torch.int64 if attr_str.endswith('els') else torch.float32
                setattr(self, attr_str, torch.zeros((self._buffer_size, *attr.shape[1:]), dtype=typ, device=self.device))

    def add_data(self, examples, labels=None, logits=None, task_labels=None, true_labels=None):
        if not hasattr(self, 'examples'):
            self.init_tensors(examples, labels, logits, task_labels, true_labels)
        for i, (example, label) in enumerate(zip(examples.unbind(0), labels.unbind(0))):
            index = self.sample_selection_fn(self.num_seen_examples)
            self.num_seen_examples += 1
            if index >= 0:
                self.examples[index] = example.to(self.device)
                self.labels[index] = label.to(self.device)

    def get_data(self, size, transform=None, return_index=False, device=None):
        target_device = self.device if device is None else device
        num_avail_samples = min(self.num_seen_examples, self.examples.shape[0])
        if size > min(num_avail_samples, self.examples.shape[0]):
            size = min(num_avail_samples, self.examples.shape[0])
        choice = np.random.choice(num_avail_samples, size=size, replace=False)
        if transform is None:
            def transform(x): return x
        selected_samples = self.examples[choice]
        ret_tuple = (transform(selected_samples).to(target_device),)
        for attr_str in self.attributes[1:]:
            if hasattr(self, attr_str):
                attr = getattr(self, attr_str)
                ret_tuple += (attr[choice].to(target_device),)
        return ret_tuple

def get_device():
    return torch.device("cuda:0")

class ContinualModel(nn.Module):
    def __init__(self, backbone, loss, args, transform, dataset=None):
        super().__init__()
        self.net = backbone
        self.loss = loss
        self.args = args
        self.transform = transform
        self.device = get_device()
        self.net.to(self.device)

class Er(ContinualModel):
    NAME = 'er'

    def __init__(self, backbone, loss, args, transform, dataset=None):
        super(Er, self).__init__(backbone, loss, args, transform, dataset=dataset)
        self.buffer = Buffer(self.args.buffer_size)

    def observe(self, inputs, labels, not_aug_inputs, epoch=None):
        real_batch_size = inputs.shape[0]
        if not self.buffer.is_empty():
            buf_inputs, buf_labels = self.buffer.get_data(
                self.args.minibatch_size, transform=self.transform, device=self.device)
            inputs = torch.cat((inputs, buf_inputs))
            labels = torch.cat((labels, buf_labels))
        outputs = self.net(inputs)
        loss = self.loss(outputs, labels)
        self.buffer.add_data(examples=not_aug_inputs, labels=labels.narrow(0, 0, real_batch_size))
        return loss

backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU(), nn.Linear(64, 10))
args = Namespace(buffer_size=50, minibatch_size=8, lr=0.1)
model = Er(backbone, F.cross_entropy, args, transform=None)
model.buffer.add_data(examples=torch.randn(30, 3, 8, 8), labels=torch.randint(0, 5, (30,)))   # task 0
inputs = torch.randn(16, 3, 8, 8, device="cuda:0")
labels = torch.randint(5, 10, (16,), device="cuda:0")
not_aug_inputs = inputs.clone()
'''
CELL = '''
loss = model.observe(inputs, labels, not_aug_inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
