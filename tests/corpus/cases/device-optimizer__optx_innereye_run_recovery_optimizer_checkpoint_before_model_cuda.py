"""InnerEye run recovery: the optimizer state is restored from the checkpoint before the model is moved to the GPU.

Source: https://github.com/microsoft/InnerEye-DeepLearning/issues/198
"Running training recovery on a BasicModel2Epochs fails with ... expected device cpu but got device
cuda:0" at the optimizer step; the fix (PR #205, "Move optimizer parameters to cuda") moves the
restored optimizer state to the GPU. On recovery the model and its optimizer are created and the
checkpoint (read onto the CPU) is loaded into both, and only then is the model adjusted for the
GPUs. Stand-in: the model-and-info object reduced to that order; Adam; one training step with
the gradients backward would leave.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class BasicModel2Epochs(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv3d(4, 2, 1))
    def forward(self, x):
        return self.net(x)

# the checkpoint written by the first run, read back on the CPU
_m = BasicModel2Epochs()
_o = torch.optim.Adam(_m.parameters(), lr=1e-3)
for _p in _m.parameters():
    _p.grad = torch.ones_like(_p)
_o.step()
recovery_checkpoint = {"epoch": 1, "state_dict": _m.state_dict(), "opt_dict": _o.state_dict()}

class ModelAndInfo:
    def __init__(self):
        self.model = BasicModel2Epochs()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
    def try_load_checkpoint_for_model_and_optimizer(self, checkpoint):
        self.model.load_state_dict(checkpoint["state_dict"])
        self.optimizer.load_state_dict(checkpoint["opt_dict"])
        return checkpoint["epoch"]
    def adjust_model_for_gpus(self):
        self.model = self.model.to("cuda:0")

model_and_info = ModelAndInfo()
start_epoch = model_and_info.try_load_checkpoint_for_model_and_optimizer(recovery_checkpoint)
model_and_info.adjust_model_for_gpus()
model, optimizer = model_and_info.model, model_and_info.optimizer

def training_step(batch):
    optimizer.zero_grad()
    logits = model(batch)
    for p in model.parameters():       # stand-in for loss.backward()
        p.grad = torch.ones_like(p)
    optimizer.step()
    return logits

batch = torch.randn(2, 1, 8, 8, 8).to("cuda:0")
'''
CELL = '''
logits = training_step(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for st in optimizer.state.values():
    for k, v in st.items():
        if torch.is_tensor(v) and k != "step":
            st[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
