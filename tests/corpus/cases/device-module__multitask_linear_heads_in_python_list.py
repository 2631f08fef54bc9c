"""A multitask model keeps its per-task Linear heads in a Python list; model.cuda() skips them.

Source: https://github.com/pytorch/pytorch/issues/15005
"model.cuda() doesn't automatically detect layers initialized in a list": the user's module built
`self.softmaxes = []` and appended one `nn.Linear(input_features, num_classes[i])` per task, moved
the model to the GPU and sent the batch to the GPU inside `forward`; the heads stayed on the CPU.
The answer: register them with `nn.ModuleList`. Reduced: random data, four tasks.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

num_classes = [5, 2, 10, 3]
device = torch.device("cuda:0")

class test(nn.Module):
    def __init__(self, input_features):
        super(test, self).__init__()
        self.softmaxes = []
        for i in range(4):
            self.softmaxes.append(nn.Linear(input_features, num_classes[i]))

    def forward(self, batch_in):
        batch_in = batch_in.to(device)
        classify = []
        for i in range(4):
            classify.append(self.softmaxes[i](batch_in))
        return classify

batch_size = 32
input_features = 100
X_train = torch.rand(500, input_features)
model = test(input_features)
model.to(device)
'''
CELL = '''
outputs = model(X_train[:batch_size])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.softmaxes"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.softmaxes = []", "self.softmaxes = nn.ModuleList()")
CLEAN = False
