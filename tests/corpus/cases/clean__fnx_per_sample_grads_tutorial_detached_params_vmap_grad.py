"""torch.func per-sample-gradients tutorial: detached copies of the parameters, `vmap(grad(compute_loss))` over data and int64 targets on the device.

Source: https://pytorch.org/tutorials/intermediate/per_sample_grads.html
The tutorial moves `SimpleCNN` to the device, builds `params = {k: v.detach() for k, v in
model.named_parameters()}` and `buffers` the same way, and computes
`vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)`, where
`compute_loss` runs `functional_call(model, (params, buffers), (batch,))` on one sample. Look-alike:
tensors that are not the model's parameters stand in for them, float data beside int64 targets; all on
one device, it runs. SIM meta: "meta" plays the tutorial's cuda; the CNN is narrowed.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad

class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.fc1 = nn.Linear(2304, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)

def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)

device = "meta"              # 'cuda' in the tutorial
batch_size = 16
data = torch.randn(batch_size, 1, 28, 28, device=device)
targets = torch.randint(10, (batch_size,), device=device)
model = SimpleCNN().to(device=device)

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}

def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    loss = loss_fn(predictions, targets)
    return loss

ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
'''
CELL = '''
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
print({k: v.shape for k, v in ft_per_sample_grads.items()}["fc2.weight"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
