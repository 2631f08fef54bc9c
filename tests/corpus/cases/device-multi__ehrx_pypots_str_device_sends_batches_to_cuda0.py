"""PyPOTS model moved to `cuda:2` with a string device: `_send_data_to_given_device` falls back to `.cuda()`, i.e. cuda:0.

Source: https://github.com/WenjieDu/PyPOTS/issues/575
The reporter moved a PyPOTS model to another GPU with a plain string (`"cuda:2"`). In
`BaseModel._send_data_to_given_device`, `if isinstance(self.device, torch.device)` sends the data with
`.to(self.device)`, and every other value takes the multi-GPU branch `x.cuda()`, "that without
specification is cuda:0 ... leading to the model being on cuda:2 and the data on cuda:0, crashing."
The device has to be a `torch.device` (PR #563 adds a `to()` method that goes through device setup
and treats lists, devices and the CPU separately).
Stand-in: the BaseNNImputer plumbing (`_setup_device`, `_send_data_to_given_device`, batch
assembly, predict) around a SAITS-like network reduced to linear layers; `x.cuda()` is written
`x.to("cuda:0")`, which is what it does with the default current device.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn


class _SAITS(nn.Module):
    def __init__(self, d_feature, d_model):
        super().__init__()
        self.embedding = nn.Linear(d_feature * 2, d_model)
        self.reduce_dim = nn.Linear(d_model, d_feature)

    def forward(self, inputs):
        X, masks = inputs["X"], inputs["missing_mask"]
        X_tilde = self.reduce_dim(torch.relu(self.embedding(torch.cat([X, masks], dim=2))))
        return {"imputation": masks * X + (1 - masks) * X_tilde}


class SAITS:
    """Stand-in for pypots.imputation.SAITS with BaseModel's device handling (pypots 0.8-0.9)."""

    def __init__(self, n_steps, n_features, d_model=64, device=None):
        self.n_steps, self.n_features = n_steps, n_features
        self._setup_device(device)
        self.model = _SAITS(n_features, d_model)
        self.model = self.model.to(self.device)

    def _setup_device(self, device):
        if isinstance(device, str):
            self.device = torch.device(device.lower())
        elif isinstance(device, torch.device):
            self.device = device
        else:
            self.device = [torch.device(d) for d in device]

    def _send_data_to_given_device(self, data):
        if isinstance(self.device, torch.device):  # single device
            data = map(lambda x: x.to(self.device), data)
        else:  # parallely training on multiple devices
            data = map(lambda x: x.to("cuda:0"), data)        # x.cuda()
        return data

    def _assemble_input_for_testing(self, data):
        X, missing_mask = self._send_data_to_given_device(data)
        return {"X": X, "missing_mask": missing_mask}

    def predict(self, test_set):
        X = test_set["X"]
        missing_mask = (~torch.isnan(X)).float()
        X = torch.nan_to_num(X)
        self.model.eval()
        with torch.no_grad():
            inputs = self._assemble_input_for_testing((X, missing_mask))
            results = self.model(inputs)
        return {"imputation": results["imputation"]}


# trained on GPU 0 earlier; GPU 2 is free, so move the model there for inference
saits = SAITS(n_steps=48, n_features=37, d_model=64, device="cuda:0")
saits.device = "cuda:2"
saits.model = saits.model.to(saits.device)

test_X = torch.randn(64, 48, 37)
test_X = torch.where(torch.rand(64, 48, 37) < 0.8, torch.full_like(test_X, float("nan")), test_X)
test_set = {"X": test_X}
'''
CELL = '''
results = saits.predict(test_set)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["saits"]
FIX = "namespace"
REFERENCE_FIX = '''
saits.device = torch.device("cuda:2")
'''
REFERENCE_EDIT = None
CLEAN = False
