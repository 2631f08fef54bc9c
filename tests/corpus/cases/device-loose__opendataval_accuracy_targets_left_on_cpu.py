"""OpenDataVal on a GPU: the model's predictions come back on cuda, the test labels stay on the CPU.

Source: https://github.com/opendataval/opendataval/pull/37
"RuntimeError: Expected all tensors to be on the same device" in `accuracy`, `neg_l2` and `neg_mse`
"when model predictions are on GPU but target tensors are on CPU": with `device=torch.device("cuda")`
the classifier's `predict` returns `y_hat` on the GPU while the fetcher's one-hot `y_test` stays on
the CPU. The PR moves the second argument to the first one's device inside the metric. Stand-in:
the metric (returning the tensor, not `.item()`: the simulator has no values to read) and a small
classifier with the library's `predict`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

def accuracy(a: torch.Tensor, b: torch.Tensor):
    return (a.argmax(dim=1) == b.argmax(dim=1)).float().mean()

class ClassifierMLP(nn.Module):
    def __init__(self, input_dim, num_classes, layers=3, hidden_dim=25):
        super().__init__()
        mlp_layers = [nn.Linear(input_dim, hidden_dim), nn.ReLU()]
        for _ in range(layers - 2):
            mlp_layers += [nn.Linear(hidden_dim, hidden_dim), nn.ReLU()]
        mlp_layers += [nn.Linear(hidden_dim, num_classes), nn.Softmax(-1)]
        self.mlp = nn.Sequential(*mlp_layers)

    def forward(self, x):
        return self.mlp(x)

    def predict(self, x):
        self.eval()
        with torch.no_grad():
            return self(x)

device = torch.device("cuda:0")
x_test = torch.randn(40, 8)
y_test = nn.functional.one_hot(torch.randint(0, 2, (40,)), 2).float()   # fetcher keeps labels on the CPU
model = ClassifierMLP(8, 2).to(device)
y_hat = model.predict(x_test.to(device))
'''
CELL = '''
perf = accuracy(y_hat, y_test)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["y_test"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    return (a.argmax(dim=1) == b.argmax(dim=1)).float().mean()",
    "    b = b.to(a.device)\n    return (a.argmax(dim=1) == b.argmax(dim=1)).float().mean()",
)
CLEAN = False
