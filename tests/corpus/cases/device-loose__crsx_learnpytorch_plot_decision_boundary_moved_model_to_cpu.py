"""learnpytorch.io 02 classification: re-running the training cell after `plot_decision_boundary` finds model_0 on the CPU.

Source: https://github.com/mrdbourke/pytorch-deep-learning/issues/531
The user trained `model_0` (circles data) on the GPU; the loop worked the first time but failed
the second time with "Expected all tensors to be on the same device, but found at least two
devices, cpu and cuda:0! (... mat1 in method wrapper_CUDA_addmm)". The maintainer explained that
`helper_functions.plot_decision_boundary()` calls `model.to("cpu")` (to plot with NumPy), which
moves the model in place, while X_train/X_test stay on the GPU; the fix is to move the model back
with `model_0.to(device)` before training again.
Stand-ins: the course's CircleModelV0 and a plot helper reduced to its `model.to("cpu")` and a CPU
grid prediction (no matplotlib); the failing cell is the loop's evaluation step.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")   # the notebook: "cuda" if torch.cuda.is_available() else "cpu"

class CircleModelV0(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer_1 = nn.Linear(in_features=2, out_features=5)
        self.layer_2 = nn.Linear(in_features=5, out_features=1)

    def forward(self, x):
        return self.layer_2(self.layer_1(x))

def plot_decision_boundary(model: torch.nn.Module, X: torch.Tensor, y: torch.Tensor):
    """helper_functions.py: put everything on the CPU (works better with NumPy + Matplotlib)."""
    model.to("cpu")
    xx, yy = torch.meshgrid(torch.linspace(-1.1, 1.1, 11), torch.linspace(-1.1, 1.1, 11), indexing="xy")
    X_to_pred_on = torch.stack((xx.reshape(-1), yy.reshape(-1)), dim=1)
    model.eval()
    with torch.inference_mode():
        y_logits = model(X_to_pred_on)
    return torch.round(torch.sigmoid(y_logits))

model_0 = CircleModelV0().to(device)
X_train = torch.randn(80, 2, device=device)
y_train = torch.randn(80, device=device)
X_test = torch.randn(20, 2, device=device)
y_test = torch.randn(20, device=device)
loss_fn = nn.BCEWithLogitsLoss()

_ = plot_decision_boundary(model_0, X_train, y_train)   # the "Train" plot cell
'''
CELL = '''
model_0.eval()
with torch.inference_mode():
    test_logits = model_0(X_test).squeeze()
    test_pred = torch.round(torch.sigmoid(test_logits))
    test_loss = loss_fn(test_logits, y_test)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model_0"]
FIX = "namespace"
REFERENCE_FIX = '''
model_0.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
