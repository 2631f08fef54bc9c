"""SA-ConvLSTM's ConvLSTM cells are built on DEVICE, but the Seq2Seq's LayerNorm and Conv3d layers stay on the CPU because the Trainer never moves the model.

Source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/25
"Fix Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!":
after the cells' `nn.Conv2d(..., device=DEVICE)` and the `.to(DEVICE)` hidden/cell states, training
the moving-MNIST ConvLSTM Seq2Seq on a GPU still failed, since `Seq2Seq.sequential` also holds
`nn.LayerNorm` and `nn.Conv3d` layers created on the CPU and `Trainer.__init__` stored
`self.model = model` as given (the batch is moved with `input.to(DEVICE)`). The PR changes it to
`self.model = model.to(DEVICE)`. Reduced: `BaseConvLSTMCell`, `ConvLSTM`, `Seq2Seq`, `Trainer` are
stand-ins for the repo's classes (one layer, 8x8 frames); the cell runs the first training step's
forward and loss (the epoch loop, backward and `.item()` are left out); SIM meta stands for cuda.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

DEVICE = "meta"      # core/constants.py: "cuda" if torch.cuda.is_available() else "cpu"

class BaseConvLSTMCell(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, padding, activation, frame_size):
        super().__init__()
        self.activation = torch.relu if activation == "relu" else torch.tanh
        self.conv = nn.Conv2d(in_channels=in_channels + out_channels, out_channels=4 * out_channels,
                              kernel_size=kernel_size, padding=padding, device=DEVICE)
        self.W_ci = nn.parameter.Parameter(torch.zeros(out_channels, *frame_size, dtype=torch.float)).to(DEVICE)
        self.W_co = nn.parameter.Parameter(torch.zeros(out_channels, *frame_size, dtype=torch.float)).to(DEVICE)
        self.W_cf = nn.parameter.Parameter(torch.zeros(out_channels, *frame_size, dtype=torch.float)).to(DEVICE)

    def forward(self, X, prev_h, prev_cell):
        conv_output = self.conv(torch.cat([X, prev_h], dim=1))
        i_conv, f_conv, c_conv, o_conv = torch.chunk(conv_output, chunks=4, dim=1)
        input_gate = torch.sigmoid(i_conv + self.W_ci * prev_cell)
        forget_gate = torch.sigmoid(f_conv + self.W_cf * prev_cell)
        C = forget_gate * prev_cell + input_gate * self.activation(c_conv)
        output_gate = torch.sigmoid(o_conv + self.W_co * C)
        H = output_gate * self.activation(C)
        return H.to(DEVICE), C.to(DEVICE)

class ConvLSTM(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, padding, activation, frame_size):
        super().__init__()
        self.ConvLSTMCell = BaseConvLSTMCell(in_channels, out_channels, kernel_size, padding, activation, frame_size)
        self.out_channels = out_channels

    def forward(self, X, h=None, cell=None):
        batch_size, _, seq_len, height, width = X.size()
        output = torch.zeros((batch_size, self.out_channels, seq_len, height, width)).to(DEVICE)
        h = torch.zeros((batch_size, self.out_channels, height, width)).to(DEVICE)
        cell = torch.zeros((batch_size, self.out_channels, height, width)).to(DEVICE)
        for time_step in range(seq_len):
            h, cell = self.ConvLSTMCell(X[:, :, time_step], h, cell)
            output[:, :, time_step] = h
        return output

class Seq2Seq(nn.Module):
    def __init__(self, num_channels, kernel_size, num_kernels, padding, activation, frame_size,
                 num_layers, input_seq_length, out_channels=None, return_sequences=False):
        super().__init__()
        self.num_kernels = num_kernels
        self.frame_size = frame_size
        self.input_seq_length = input_seq_length
        self.out_channels = out_channels if out_channels is not None else num_channels
        self.return_sequences = return_sequences
        self.sequential = nn.Sequential()
        self.sequential.add_module("convlstm1", ConvLSTM(num_channels, num_kernels, kernel_size, padding, activation, frame_size))
        self.sequential.add_module("layernorm1", nn.LayerNorm([num_kernels, self.input_seq_length, *self.frame_size]))
        self.sequential.add_module("conv3d", nn.Conv3d(in_channels=self.num_kernels, out_channels=self.out_channels,
                                                        kernel_size=(3, 3, 3), padding="same"))
        self.sequential.add_module("sigmoid", nn.Sigmoid())

    def forward(self, X):
        output = self.sequential(X)
        if self.return_sequences is True:
            return output
        return output[:, :, -1:, ...]

class Trainer:
    def __init__(self, model, train_dataloader, loss_criterion, optimizer):
        self.model = model
        self.train_dataloader = train_dataloader
        self.loss_criterion = loss_criterion
        self.optimizer = optimizer

input_seq_length, frame_size = 4, (8, 8)
model = Seq2Seq(num_channels=1, kernel_size=3, num_kernels=2, padding="same", activation="relu",
                frame_size=frame_size, num_layers=1, input_seq_length=input_seq_length,
                out_channels=1, return_sequences=True)
optimizer = torch.optim.Adam(model.parameters(), lr=0.0005)
frames = torch.rand(6, 1, input_seq_length, *frame_size)       # moving-MNIST clips (CPU loader)
train_dataloader = DataLoader(TensorDataset(frames, torch.rand(6, 1, input_seq_length, *frame_size)), batch_size=2)
trainer = Trainer(model=model, train_dataloader=train_dataloader, loss_criterion=nn.MSELoss(), optimizer=optimizer)
'''
CELL = '''
trainer.model.train()
input, target = next(iter(trainer.train_dataloader))
input, target = input.to(DEVICE), target.to(DEVICE)
output = trainer.model(input)
loss = trainer.loss_criterion(output.flatten(), target.flatten())
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        self.model = model\n", "        self.model = model.to(DEVICE)\n")
CLEAN = False
