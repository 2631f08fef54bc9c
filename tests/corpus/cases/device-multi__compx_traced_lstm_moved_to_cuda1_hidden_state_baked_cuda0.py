"""A model traced on cuda:0 and then moved with `jit_model.to("cuda:1")`: the LSTM's zero hidden state stays on cuda:0.

Source: https://github.com/pytorch/pytorch/issues/46580
`Model.forward` runs a two-layer `nn.LSTM` without an initial state. The user traced it on cuda:0
(`jit_model = torch.jit.trace(model, example_in)`), then `jit_model.to("cuda:1")` and called it on
cuda:1 inputs: "Input and hidden tensors are not at the same device, found input tensor at cuda:1
and hidden tensor at cuda:0". The trace recorded the default `h0/c0 = zeros(..., device=cuda:0)`
as constants; `.to()` moves parameters but not a device baked into the graph. Fix: trace on the
device it will run on (or build the state from the input's device).
Stand-in: the traced module written as the code the trace recorded.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class TracedModel(nn.Module):        # what torch.jit.trace(model, example_in) recorded on cuda:0
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(256, 256, num_layers=2)

    def forward(self, x):
        hx = torch.zeros(2, x.shape[1], 256, dtype=torch.float32, device=torch.device("cuda:0"))
        cx = torch.zeros(2, x.shape[1], 256, dtype=torch.float32, device=torch.device("cuda:0"))
        _, (last_h_t, _) = self.lstm(x, (hx, cx))
        return last_h_t

jit_model = TracedModel().to("cuda:0")
example_in = torch.randn(16, 4, 256, device="cuda:0")
out = jit_model(example_in)
print("ok")
'''
CELL = '''
jit_model.to("cuda:1")
example_in = example_in.to("cuda:1")
out = jit_model(example_in)
'''
EXPECT_ERROR = ("not at the same device", "Expected all tensors to be on the same device")
CULPRITS = ["jit_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        hx = torch.zeros(2, x.shape[1], 256, dtype=torch.float32, device=torch.device("cuda:0"))
        cx = torch.zeros(2, x.shape[1], 256, dtype=torch.float32, device=torch.device("cuda:0"))''',
                  '''        hx = torch.zeros(2, x.shape[1], 256, dtype=torch.float32, device=x.device)
        cx = torch.zeros(2, x.shape[1], 256, dtype=torch.float32, device=x.device)''')
CLEAN = False
