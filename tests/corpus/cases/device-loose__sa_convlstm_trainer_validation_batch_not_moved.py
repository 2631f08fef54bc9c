"""SA-ConvLSTM-Pytorch: `Trainer.validation` feeds the validation batch to the GPU model without moving it.

Source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/26
Users running the Moving-MNIST pipeline (issue #8, #21) hit "Expected all tensors to be on the same
device, but found at least two devices, cpu and cuda:0! (... wrapper_CUDA_cat)". The training loop
had been fixed to do `input.to(DEVICE)`, but `Trainer.validation` still took
`next(iter(self.valid_dataloader))` and passed the CPU batch to the model, whose ConvLSTM builds its
hidden state with `.to(DEVICE)` and concatenates it with the input frame. PR #26 adds
`input, target = input.to(DEVICE), target.to(DEVICE)` in `validation`. Reduced: one ConvLSTM layer,
16x16 frames, lists of (input, target) batches for the Moving-MNIST DataLoaders; `validation` returns tensors instead of `.item()`;
the cell's conv is built on the CPU and moved by `Trainer`'s `model.to(DEVICE)`; the time steps are
gathered with `select`/`stack` instead of slice assignment into a zeros tensor.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

DEVICE = "cuda:0"                                 # core/constants.py: "cuda" if available

class BaseConvLSTMCell(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, padding, frame_size):
        super().__init__()
        self.activation = torch.relu
        self.conv = nn.Conv2d(in_channels=in_channels + out_channels, out_channels=4 * out_channels,
                              kernel_size=kernel_size, padding=padding)
        self.W_ci = nn.Parameter(torch.zeros(out_channels, *frame_size, dtype=torch.float))
        self.W_co = nn.Parameter(torch.zeros(out_channels, *frame_size, dtype=torch.float))
        self.W_cf = nn.Parameter(torch.zeros(out_channels, *frame_size, dtype=torch.float))

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
    def __init__(self, in_channels, out_channels, kernel_size, padding, frame_size):
        super().__init__()
        self.ConvLSTMCell = BaseConvLSTMCell(in_channels, out_channels, kernel_size, padding, frame_size)
        self.out_channels = out_channels

    def forward(self, X):
        batch_size, _, seq_len, height, width = X.size()
        output = []
        h = torch.zeros((batch_size, self.out_channels, height, width)).to(DEVICE)
        cell = torch.zeros((batch_size, self.out_channels, height, width)).to(DEVICE)
        for time_step in range(seq_len):
            h, cell = self.ConvLSTMCell(X.select(2, time_step), h, cell)
            output.append(h)
        return torch.stack(output, dim=2)

class Seq2Seq(nn.Module):
    def __init__(self, num_channels, kernel_size, num_kernels, padding, frame_size, input_seq_length):
        super().__init__()
        self.sequential = nn.Sequential()
        self.sequential.add_module("convlstm1", ConvLSTM(num_channels, num_kernels, kernel_size, padding, frame_size))
        self.sequential.add_module("layernorm1", nn.LayerNorm([num_kernels, input_seq_length, *frame_size]))
        self.sequential.add_module("conv3d", nn.Conv3d(num_kernels, num_channels, kernel_size=(3, 3, 3), padding="same"))
        self.sequential.add_module("sigmoid", nn.Sigmoid())

    def forward(self, X):
        return self.sequential(X)

class Trainer:
    def __init__(self, model, train_dataloader, valid_dataloader, loss_criterion, accuracy_criterion, optimizer):
        self.model = model.to(DEVICE)
        self.train_dataloader = train_dataloader
        self.valid_dataloader = valid_dataloader
        self.loss_criterion = loss_criterion
        self.accuracy_criterion = accuracy_criterion
        self.optimizer = optimizer

    def validation(self):
        self.model.eval()
        with torch.no_grad():
            input, target = next(iter(self.valid_dataloader))
            output = self.model(input)
            loss = self.loss_criterion(output.flatten(), target.flatten())
            acc = self.accuracy_criterion(output.flatten(), target.flatten())
        return loss, acc

frames = torch.rand(8, 1, 4, 16, 16)                     # Moving-MNIST stand-in: (N, C, T, H, W)
valid_dataloader = list(zip(frames.split(2), frames.split(2)))   # DataLoader(..., batch_size=2) stand-in
train_dataloader = list(zip(frames.split(2), frames.split(2)))
model = Seq2Seq(num_channels=1, kernel_size=3, num_kernels=1, padding="same", frame_size=(16, 16),
                input_seq_length=4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.0005)
trainer = Trainer(model, train_dataloader, valid_dataloader, nn.MSELoss(), nn.L1Loss(), optimizer)
'''
CELL = '''
valid_loss, valid_acc = trainer.validation()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            input, target = next(iter(self.valid_dataloader))\n",
                  "            input, target = next(iter(self.valid_dataloader))\n"
                  "            input, target = input.to(DEVICE), target.to(DEVICE)\n")
CLEAN = False
