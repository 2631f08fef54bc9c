"""ConvLSTM's init_hidden() makes the (h, c) state with torch.zeros on the default device.

Source: https://github.com/ndrplz/ConvLSTM_pytorch/pull/10
"Made init_hidden create the tensor on the correct device": the cell's init_hidden built its zero
state without a device, so once the model and the video clip were on the GPU, concatenating the
input with the CPU hidden state failed. Simulated with meta as the accelerator, where the error
reads "Tensor on device cpu is not on the expected device meta!".
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class ConvLSTMCell(nn.Module):
    def __init__(self, input_dim=3, hidden_dim=8, kernel_size=3):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.conv = nn.Conv2d(input_dim + hidden_dim, 4 * hidden_dim, kernel_size, padding=1)

    def init_hidden(self, batch_size, image_size):
        height, width = image_size
        return (torch.zeros(batch_size, self.hidden_dim, height, width),
                torch.zeros(batch_size, self.hidden_dim, height, width))

    def forward(self, x, cur_state):
        h_cur, c_cur = cur_state
        combined = torch.cat([x, h_cur], dim=1)
        i, f, o, g = torch.split(self.conv(combined), self.hidden_dim, dim=1)
        c_next = torch.sigmoid(f) * c_cur + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c_next), c_next

class ConvLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = ConvLSTMCell()

    def forward(self, clip):
        b, t, _, h, w = clip.shape
        state = self.cell.init_hidden(b, (h, w))
        for step in torch.unbind(clip, dim=1):
            state = self.cell(step, state)
        return state[0]

device = "meta"
convlstm = ConvLSTM().to(device)
clip = torch.randn(2, 5, 3, 16, 16).to(device)
'''
CELL = '''
last_hidden = convlstm(clip)
'''
EXPECT_ERROR = "Tensor on device cpu is not on the expected device meta!"
CULPRITS = ["convlstm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        return (torch.zeros(batch_size, self.hidden_dim, height, width),
                torch.zeros(batch_size, self.hidden_dim, height, width))""",
    """        device = self.conv.weight.device
        return (torch.zeros(batch_size, self.hidden_dim, height, width, device=device),
                torch.zeros(batch_size, self.hidden_dim, height, width, device=device))""",
)
CLEAN = False
