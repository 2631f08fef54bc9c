"""alphafold_pytorch (Urinx) distogram model on cuda: `build_crops_biases` builds its `increment` with `torch.arange` on the CPU.

Source: https://github.com/Urinx/alphafold_pytorch/issues/1
Running `python alphafold.py -i T0953s2.tfrec ... ` with `Device: cuda` failed in
`build_crops_biases` at `row_offsets = start_diag + increment` ("expected device cuda:0 but got device
cpu"): `start_diag` comes from the cuda crop coordinates, `increment = torch.unsqueeze(-torch.arange(0,
crop_size_y), 0)` is made without a device. The repository's fix moves it, `.to(crop_x.device)`.
Stand-in: the contact head reduced to the position-specific bias; the per-offset python loops that
slice `biases` are written as one `F.embedding` gather, crop sizes are python ints.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class Config:
    position_specific_bias_size = 24
    num_bins = 16
    crop_size = 8

class ContactsNet(nn.Module):
    def __init__(self, config, in_dim=12):
        super().__init__()
        self.config = config
        self.Deep2D = nn.Conv2d(in_dim, config.num_bins, 1)
        self.position_specific_bias = nn.Parameter(torch.zeros(config.position_specific_bias_size, config.num_bins))

    def build_crops_biases(self, bias_size, raw_biases, crop_x, crop_y):
        crop_size_x = crop_size_y = self.config.crop_size
        padded_bias_size = bias_size
        biases = torch.cat((raw_biases[1:, :].flip(0), raw_biases), 0)

        start_diag = crop_x[:, 0:1] - crop_y[:, 0:1]
        increment = torch.unsqueeze(-torch.arange(0, crop_size_y), 0)
        row_offsets = start_diag + increment
        row_offsets += padded_bias_size - 1

        idx = row_offsets.unsqueeze(-1) + torch.arange(crop_size_x, device=crop_x.device)
        cropped_biases = F.embedding(idx, biases)           # B*crop_y*crop_x*D
        cropped_biases = cropped_biases.permute(0, 3, 1, 2)  # B*D*crop_y*crop_x
        return cropped_biases

    def forward(self, x, crop_x, crop_y):
        config = self.config
        contact_logits = self.Deep2D(x)
        if config.position_specific_bias_size:
            biases = self.build_crops_biases(config.position_specific_bias_size,
                                             self.position_specific_bias, crop_x, crop_y)
            contact_logits = contact_logits + biases
        return F.softmax(contact_logits, dim=1)

DEVICE = torch.device("cuda:0")
model = ContactsNet(Config()).to(DEVICE)
model.eval()

x_2d = torch.randn(2, 12, 8, 8).to(DEVICE)
crop_x = torch.tensor([[0, 8], [8, 16]]).to(DEVICE)
crop_y = torch.tensor([[0, 8], [0, 8]]).to(DEVICE)
'''
CELL = '''
with torch.no_grad():
    out = model(x_2d, crop_x, crop_y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["increment"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "increment = torch.unsqueeze(-torch.arange(0, crop_size_y), 0)",
    "increment = torch.unsqueeze(-torch.arange(0, crop_size_y), 0).to(crop_x.device)",
)
CLEAN = False
