"""A conv + LSTM model traced on the GPU, saved, and reloaded on the CPU with map_location: the trace baked the LSTM's zero hidden state onto cuda:0.

Source: https://github.com/pytorch/pytorch/issues/34256
"Changing device of traced RNNs doesn't correctly move the hidden tensors": `traced_m =
torch.jit.trace(m, x)` on CUDA, `traced_m.save('model_gpu.pt')`, then `cpu_model =
torch.jit.load('model_gpu.pt', map_location=torch.device('cpu')); cpu_model(xcpu)` raised "Input and
hidden tensors are not at the same device, found input tensor at cpu and hidden tensor at cuda:0".
`x, _ = self.rnn(x)` lets nn.LSTM create a zero (h0, c0) with the input's device, and the trace
records that device as a constant. Stand-in: the traced module written as the Python its serialized
code amounts to (tracing fake tensors is not possible).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class TracedNet(nn.Module):          # torch.jit.trace(Net().cuda(), x) as serialized, reloaded with map_location='cpu'
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 5)
        self.conv2 = nn.Conv2d(16, 16, 5)
        self.rnn = nn.LSTM(512, 64, 2, batch_first=True)
        self.lin = nn.Linear(64, 2)

    def forward(self, x):
        x = self.conv2(self.conv1(x))
        x = x.transpose(1, -1)
        x = x.reshape(x.size(0), x.size(1), -1)
        hx = torch.zeros([2, 16, 64], dtype=torch.float32, device=torch.device("cuda:0"))
        cx = torch.zeros([2, 16, 64], dtype=torch.float32, device=torch.device("cuda:0"))
        x, _ = self.rnn(x, (hx, cx))
        x = x[:, -1]
        return self.lin(x)

cpu_model = TracedNet()              # torch.jit.load('model_gpu.pt', map_location=torch.device('cpu'))
xcpu = torch.randn(16, 1, 40, 40)
'''
CELL = '''
out = cpu_model(xcpu)
'''
EXPECT_ERROR = ("not at the same device", "Expected all tensors to be on the same device")
CULPRITS = ["cpu_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        hx = torch.zeros([2, 16, 64], dtype=torch.float32, device=torch.device("cuda:0"))
        cx = torch.zeros([2, 16, 64], dtype=torch.float32, device=torch.device("cuda:0"))
''', '''        hx = torch.zeros([2, 16, 64], dtype=torch.float32, device=x.device)
        cx = torch.zeros([2, 16, 64], dtype=torch.float32, device=x.device)
''')
CLEAN = False
