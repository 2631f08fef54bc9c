"""Look-alike: PyCIL's LwF keeps a frozen deep copy of the previous network for distillation and moves it to the learner's device at the start of `_train`.

Source: https://github.com/LAMDA-CL/PyCIL/blob/master/models/lwf.py (after_task, _train, _update_representation, _KD_loss)
and https://github.com/LAMDA-CL/PyCIL/blob/master/utils/inc_net.py (BaseNet.copy, freeze)
`after_task` stores `self._old_network = self._network.copy().freeze()` (a `copy.deepcopy`,
parameters frozen, `eval()`), an attribute of the learner outside any module; `_train` calls
`self._network.to(self._device)` and `self._old_network.to(self._device)` before the epoch loop,
where `_KD_loss(logits[:, :known], self._old_network(inputs)["logits"], T)` compares the two
networks' outputs on the same cuda batch. Both networks are on cuda:0: nothing is misplaced.
Stand-ins: `IncrementalNet` (convnet + `update_fc`, `copy`, `freeze`), the LwF learner's
`after_task`, the device moves of `_train` and one step of `_update_representation` without
backward/optimizer (fake cuda has no autograd); `logits[:, a:b]` is written `narrow`; a small MLP
for resnet32.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn
from torch.nn import functional as F

T = 2
lamda = 3

class SimpleLinear(nn.Linear):
    def forward(self, input):
        return {'logits': F.linear(input, self.weight, self.bias)}

class IncrementalNet(nn.Module):
    def __init__(self, args, pretrained):
        super().__init__()
        self.convnet = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU())
        self.out_dim = 64
        self.fc = None

    def update_fc(self, nb_classes):
        fc = SimpleLinear(self.out_dim, nb_classes)
        if self.fc is not None:
            nb_output = self.fc.out_features
            fc.weight.data[:nb_output] = copy.deepcopy(self.fc.weight.data)
            fc.bias.data[:nb_output] = copy.deepcopy(self.fc.bias.data)
        del self.fc
        self.fc = fc

    def forward(self, x):
        features = self.convnet(x)
        out = self.fc(features)
        out.update({"features": features})
        return out

    def copy(self):
        return copy.deepcopy(self)

    def freeze(self):
        for param in self.parameters():
            param.requires_grad = False
        self.eval()
        return self

def _KD_loss(pred, soft, T):
    pred = torch.log_softmax(pred / T, dim=1)
    soft = torch.softmax(soft / T, dim=1)
    return -1 * torch.mul(soft, pred).sum() / pred.shape[0]

class Learner:
    def __init__(self, args):
        self._device = args["device"][0]
        self._network = IncrementalNet(args, False)
        self._old_network = None
        self._known_classes = 0
        self._total_classes = 0

    def after_task(self):
        self._old_network = self._network.copy().freeze()
        self._known_classes = self._total_classes

args = {"device": [torch.device("cuda:0")]}
learner = Learner(args)
learner._total_classes = 10
learner._network.update_fc(10)            # task 0 (trained before)
learner._network.to(learner._device)
learner.after_task()
learner._total_classes = 20
learner._network.update_fc(20)            # task 1
learner._network.to(learner._device)      # _train(): self._network.to(self._device)
if learner._old_network is not None:
    learner._old_network.to(learner._device)
inputs = torch.randn(16, 3, 8, 8)
targets = torch.randint(10, 20, (16,))
'''
CELL = '''
inputs, targets = inputs.to(learner._device), targets.to(learner._device)
logits = learner._network(inputs)["logits"]
fake_targets = targets - learner._known_classes
loss_clf = F.cross_entropy(logits.narrow(1, learner._known_classes, learner._total_classes - learner._known_classes), fake_targets)
loss_kd = _KD_loss(logits.narrow(1, 0, learner._known_classes), learner._old_network(inputs)["logits"], T)
loss = lamda * loss_kd + loss_clf
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
