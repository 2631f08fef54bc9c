"""Look-alike: the early RobustBench/AutoAttack wrapper for Rice2020 builds its normalization constants with `.cuda()` and evaluates CPU test tensors batch by batch.

Source: https://github.com/fra31/auto-attack/issues/13
Asked how a model trained with input normalization is evaluated, the maintainer gave the wrapper
`Rice2020OverfittingNet(WideResNet)` whose normalization constants are plain tensors made with
`torch.Tensor([...]).float().view(3, 1, 1).cuda()` (the early RobustBench model zoo created them in
`forward`), so that the attacked model takes data in [0, 1]. The model is `.cuda()`'d, the CIFAR-10
test set stays a CPU tensor and `clean_accuracy` moves each batch with `.to(device)`: everything
meets on cuda:0 and runs. Stand-in: a 2-block CNN for the WideResNet-34-20, random data for
`load_cifar10`, `clean_accuracy` returning the tensor (no `.item()`); `.cuda()` is written
`.cuda("cuda:0")`, the current GPU it resolves to (the simulator has no current device).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class WideResNet(nn.Module):
    def __init__(self, depth=34, widen_factor=20, sub_block1=False, num_classes=10):
        super(WideResNet, self).__init__()
        width = 4 * widen_factor
        self.conv1 = nn.Conv2d(3, width, 3, padding=1, bias=False)
        self.block1 = nn.Sequential(nn.BatchNorm2d(width), nn.ReLU(), nn.Conv2d(width, width, 3, padding=1, bias=False))
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x):
        out = self.conv1(x)
        out = self.block1(out)
        out = self.relu(self.bn1(out))
        out = nn.functional.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.fc(out)

class Rice2020OverfittingNet(WideResNet):
    def __init__(self, depth, widen_factor):
        super(Rice2020OverfittingNet, self).__init__(depth=depth, widen_factor=widen_factor, sub_block1=False)

    def forward(self, x, return_prelogit=False):
        mu = torch.Tensor([0.4914, 0.4822, 0.4465]).float().view(3, 1, 1).cuda("cuda:0")      # .cuda()
        sigma = torch.Tensor([0.2471, 0.2435, 0.2616]).float().view(3, 1, 1).cuda("cuda:0")   # .cuda()
        x = (x - mu) / sigma
        return super(Rice2020OverfittingNet, self).forward(x)

def load_cifar10(n_examples):
    return torch.rand(n_examples, 3, 32, 32), torch.randint(0, 10, (n_examples,))

def clean_accuracy(model, x, y, batch_size=100, device=None):
    acc = 0.
    n_batches = (x.shape[0] + batch_size - 1) // batch_size
    with torch.no_grad():
        for counter in range(n_batches):
            x_curr = x[counter * batch_size:(counter + 1) * batch_size].to(device)
            y_curr = y[counter * batch_size:(counter + 1) * batch_size].to(device)
            output = model(x_curr)
            acc += (output.max(1)[1] == y_curr).float().sum()
    return acc / x.shape[0]

device = torch.device("cuda:0")
model = Rice2020OverfittingNet(34, 20)
model = model.cuda("cuda:0").eval()   # model.cuda()
x_test, y_test = load_cifar10(n_examples=200)
'''
CELL = '''
acc = clean_accuracy(model, x_test, y_test, batch_size=64, device=device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
