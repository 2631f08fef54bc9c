"""Look-alike: PyCIL's `_compute_accuracy` moves only the inputs to the GPU and compares `predicts.cpu()` with the loader's CPU targets.

Source: https://github.com/LAMDA-CL/PyCIL/blob/master/models/base.py (BaseLearner._compute_accuracy)
The evaluation loop sends `inputs.to(self._device)` through the network but leaves `targets` on
the CPU, as the loader gave them; the predictions are brought back with `predicts.cpu()` before
`(predicts.cpu() == targets).sum()`, so the metric is accumulated on the CPU on purpose. Nothing
is misplaced. Stand-ins: the learner's `_device`/`_network`, a small MLP `IncrementalNet` that
returns `{"logits": ...}`, a list of `(idx, inputs, targets)` batches for the DataLoader; the
method returns the accuracy tensor instead of `np.around(tensor2numpy(correct) * 100 / total, 2)`
(fake tensors cannot become NumPy arrays).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class IncrementalNet(nn.Module):
    def __init__(self, nb_classes=20):
        super().__init__()
        self.convnet = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU())
        self.fc = nn.Linear(64, nb_classes)

    def forward(self, x):
        return {"logits": self.fc(self.convnet(x))}

class BaseLearner:
    def __init__(self, args):
        self._device = args["device"][0]
        self._network = IncrementalNet()

    def _compute_accuracy(self, model, loader):
        model.eval()
        correct, total = 0, 0
        for i, (_, inputs, targets) in enumerate(loader):
            inputs = inputs.to(self._device)
            with torch.no_grad():
                outputs = model(inputs)["logits"]
            predicts = torch.max(outputs, dim=1)[1]
            correct += (predicts.cpu() == targets).sum()
            total += len(targets)
        return correct * 100 / total

learner = BaseLearner({"device": [torch.device("cuda:0")]})
learner._network.to(learner._device)
test_loader = [(torch.arange(16) + 16 * b, torch.randn(16, 3, 8, 8), torch.randint(0, 20, (16,)))
               for b in range(3)]
'''
CELL = '''
test_acc = learner._compute_accuracy(learner._network, test_loader)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
