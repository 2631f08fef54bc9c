"""Look-alike: mammoth's DER++ buffer allocates its tensors with dtypes chosen by attribute name (int64 for `labels`, float32 for `logits`) and replays them into MSE and cross-entropy terms.

Source: https://github.com/aimagelab/mammoth/blob/master/utils/buffer.py (Buffer.init_tensors, add_data, get_data)
and https://github.com/aimagelab/mammoth/blob/master/models/derpp.py (Derpp.observe)
`init_tensors` creates every buffer field with `torch.zeros(..., dtype=typ)` where
`typ = torch.int64 if attr_str.endswith('els') else torch.float32`, a dtype written in code rather
than taken from the data; `observe` stores `logits=outputs.data` and later uses
`F.mse_loss(buf_outputs, buf_logits)` and `self.loss(buf_outputs, buf_labels)`. The choice matches
what the losses need (float32 logits, int64 class indices): nothing is wrong. Stand-ins: `Buffer`
with reservoir sampling only, `ContinualModel`/`Derpp` on the CPU with SGD, a small MLP for the
ResNet-18 backbone; the buffer holds a previous task's samples from SETUP.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from argparse import Namespace
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class Buffer:
    def __init__(self, buffer_size, device="cpu"):
        self._buffer_size = buffer_size
        self.device = device
        self.num_seen_examples = 0
        self.attributes = ['examples', 'labels', 'logits', 'task_labels', 'true_labels']

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
        for i in range(examples.shape[0]):
            if self.num_seen_examples < self._buffer_size:
                index = self.num_seen_examples
            else:
                rand = np.random.randint(0, self.num_seen_examples + 1)
                index = rand if rand < self._buffer_size else -1
            self.num_seen_examples += 1
            if index >= 0:
                self.examples[index] = examples[i].to(self.device)
                if labels is not None:
                    self.labels[index] = labels[i].to(self.device)
                if logits is not None:
                    self.logits[index] = logits[i].to(self.device)

    def get_data(self, size, transform=None, device=None):
        target_device = self.device if device is None else device
        num_avail_samples = min(self.num_seen_examples, self.examples.shape[0])
        size = min(size, num_avail_samples)
        choice = np.random.choice(num_avail_samples, size=size, replace=False)
        if transform is None:
            def transform(x): return x
        ret_tuple = (transform(self.examples[choice]).to(target_device),)
        for attr_str in self.attributes[1:]:
            if hasattr(self, attr_str):
                ret_tuple += (getattr(self, attr_str)[choice].to(target_device),)
        return ret_tuple

class Derpp(nn.Module):
    NAME = 'derpp'

    def __init__(self, backbone, loss, args, transform):
        super().__init__()
        self.net, self.loss, self.args, self.transform = backbone, loss, args, transform
        self.device = torch.device("cpu")
        self.opt = torch.optim.SGD(self.net.parameters(), lr=args.lr)
        self.buffer = Buffer(self.args.buffer_size)

    def observe(self, inputs, labels, not_aug_inputs, epoch=None):
        self.opt.zero_grad()
        outputs = self.net(inputs)
        loss = self.loss(outputs, labels)
        if not self.buffer.is_empty():
            buf_inputs, _, buf_logits = self.buffer.get_data(self.args.minibatch_size, transform=self.transform, device=self.device)
            buf_outputs = self.net(buf_inputs)
            loss_mse = self.args.alpha * F.mse_loss(buf_outputs, buf_logits)
            loss += loss_mse
            buf_inputs, buf_labels, _ = self.buffer.get_data(self.args.minibatch_size, transform=self.transform, device=self.device)
            buf_outputs = self.net(buf_inputs)
            loss_ce = self.args.beta * self.loss(buf_outputs, buf_labels)
            loss += loss_ce
        loss.backward()
        self.opt.step()
        self.buffer.add_data(examples=not_aug_inputs, labels=labels, logits=outputs.data)
        return loss.item()

backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU(), nn.Linear(64, 10))
args = Namespace(buffer_size=50, minibatch_size=8, lr=0.03, alpha=0.1, beta=0.5)
model = Derpp(backbone, F.cross_entropy, args, transform=None)
with torch.no_grad():
    prev_x = torch.randn(30, 3, 8, 8)
    model.buffer.add_data(examples=prev_x, labels=torch.randint(0, 5, (30,)), logits=model.net(prev_x))
inputs = torch.randn(16, 3, 8, 8)
labels = torch.randint(5, 10, (16,))
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
