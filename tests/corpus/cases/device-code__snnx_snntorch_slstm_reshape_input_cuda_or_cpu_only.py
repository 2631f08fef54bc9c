"""snnTorch SLSTM on an Apple-silicon GPU: the zero state is built on "cuda" or "cpu" only.

Source: https://github.com/jeshraghian/snntorch/issues/198
"SLSTM cuda/cpu/mps bug": `SLSTM._reshape_input` picks the device with
`if input_.is_cuda: device = "cuda" else: device = "cpu"` and returns
`torch.zeros(b, self.hidden_size).to(device)`, so with the network and data on `mps` the synaptic
and membrane states are made on the CPU and the LSTM cell mixes devices. The fix in the thread
(v0.6.1) takes `device = input_.device`.
Stand-in: SLSTM reduced to its state initialisation, `nn.LSTMCell` and a Heaviside spike; the
user's net holds one SLSTM after a Linear. meta plays the MPS device (not `is_cuda`, like mps).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class SLSTM(nn.Module):
    def __init__(self, input_size, hidden_size, threshold=1.0):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.threshold = threshold
        self.lstm_cell = nn.LSTMCell(self.input_size, self.hidden_size)

    def _reshape_input(self, input_):
        if input_.is_cuda:
            device = "cuda"
        else:
            device = "cpu"
        b, _ = input_.size()
        return torch.zeros(b, self.hidden_size).to(device)

    def forward(self, input_, syn=None, mem=None):
        if syn is None:
            syn = self._reshape_input(input_)
            mem = self._reshape_input(input_)
        mem, syn = self.lstm_cell(input_, (mem, syn))
        spk = (mem - self.threshold > 0).to(mem.dtype)
        return spk, syn, mem

class Net(nn.Module):
    def __init__(self, num_inputs=16, num_hidden=12, num_outputs=4):
        super().__init__()
        self.fc1 = nn.Linear(num_inputs, num_hidden)
        self.slstm1 = SLSTM(num_hidden, num_outputs)

    def forward(self, x):
        spk_rec = []
        syn = mem = None
        for step in range(x.size(0)):
            spk, syn, mem = self.slstm1(self.fc1(x[step]), syn, mem)
            spk_rec.append(spk)
        return torch.stack(spk_rec)

device = torch.device("meta")    # the user's torch.device("mps")
net = Net().to(device)
data = torch.rand(5, 8, 16, device=device)
'''
CELL = '''
spk_rec = net(data)
print(spk_rec.shape)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device", "device")
CULPRITS = ["net.slstm1"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        if input_.is_cuda:
            device = "cuda"
        else:
            device = "cpu"''', '''        device = input_.device''')
CLEAN = False
