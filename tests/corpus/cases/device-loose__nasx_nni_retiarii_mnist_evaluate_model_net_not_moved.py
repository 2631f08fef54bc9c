"""NNI Retiarii MNIST multi-trial example: `evaluate_model` moves each batch to the GPU but never the sampled model.

Source: https://github.com/microsoft/nni/pull/4652
With `exp_config.trial_gpu_number = 1` and `use_active_gpu = True`, every trial of
`examples/nas/multi-trial/mnist/search.py` failed (reported in microsoft/nni#4641; the CPU-only run
worked). `evaluate_model(model_cls)` instantiates the sampled `Net`, builds the optimizer and the
MNIST loaders, picks `device = cuda`, and `train_epoch`/`test_epoch` do `data.to(device)` for every
batch, but the model itself stays on the CPU, "so PyTorch will fail when compute net(input)". The
merged fix adds `model.to(device)` before the epoch loop.
Stand-ins: the mutated `Net` that NNI hands to `evaluate_model` (LayerChoice -> Conv2d, dropout 0.25,
fc width 128) as plain torch modules; MNIST-shaped random batches; `test_epoch` without the
`.item()`/print calls (no value can be read back from the simulated GPU); `cuda:0` for `cuda`.
On a real GPU the first conv raises "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same"; the simulation's conv does not check devices, so the
same mismatch surfaces at `fc1`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    """The model NNI samples from the Retiarii space: conv2=Conv2d, dropout 0.25, fc1 width 128."""
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(self.conv2(x), 2)
        x = torch.flatten(self.dropout1(x), 1)
        x = self.fc2(self.dropout2(F.relu(self.fc1(x))))
        return x

def test_epoch(model, device, test_loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum()
    accuracy = 100. * correct / (len(test_loader) * 64)
    return accuracy

model_cls = Net
model = model_cls()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
test_loader = [(torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))) for _ in range(2)]
device = torch.device('cuda:0')     # the trial's torch.device('cuda') if torch.cuda.is_available() ...
'''
CELL = '''
accuracy = test_epoch(model, device, test_loader)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
