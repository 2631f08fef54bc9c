"""anomalib CFLOW: the 2-D positional encoding is built on the CPU in every forward and moved to the images' device.

Source: https://github.com/open-edge-platform/anomalib/blob/main/src/anomalib/models/image/cflow/torch_model.py
Look-alike: `positional_encoding_2d` creates its sin/cos grid with `torch.zeros`/`torch.arange` (no
device) inside the forward of a model that runs on cuda. It runs because the caller moves it
immediately: `pos_encoding = positional_encoding_2d(...).unsqueeze(0).repeat(...).to(images.device)`
before it is concatenated into the decoder's condition. Stand-in: the encoding function, a conv
encoder and a linear "decoder" in place of the FrEIA coupling blocks.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def positional_encoding_2d(condition_vector, height, width):
    pos_encoding = torch.zeros(condition_vector, height, width)
    condition_vector = condition_vector // 2
    div_term = torch.exp(torch.arange(0.0, condition_vector, 2) * -(math.log(1e4) / condition_vector))
    pos_w = torch.arange(0.0, width).unsqueeze(1)
    pos_h = torch.arange(0.0, height).unsqueeze(1)
    pos_encoding[0:condition_vector:2, :, :] = torch.sin(pos_w * div_term).transpose(0, 1).unsqueeze(1).repeat(1, height, 1)
    pos_encoding[1:condition_vector:2, :, :] = torch.cos(pos_w * div_term).transpose(0, 1).unsqueeze(1).repeat(1, height, 1)
    pos_encoding[condition_vector::2, :, :] = torch.sin(pos_h * div_term).transpose(0, 1).unsqueeze(2).repeat(1, 1, width)
    pos_encoding[condition_vector + 1 :: 2, :, :] = torch.cos(pos_h * div_term).transpose(0, 1).unsqueeze(2).repeat(1, 1, width)
    return pos_encoding

class CflowModel(nn.Module):
    def __init__(self, condition_vector=8, channels=16):
        super().__init__()
        self.condition_vector = condition_vector
        self.encoder = nn.Sequential(nn.Conv2d(3, channels, 3, stride=4, padding=1), nn.ReLU())
        self.decoder = nn.Linear(channels + condition_vector, channels)

    def forward(self, images):
        activation = self.encoder(images)
        batch_size, dim_feature_vector, im_height, im_width = activation.size()
        pos_encoding = positional_encoding_2d(self.condition_vector, im_height, im_width).unsqueeze(0).repeat(
            batch_size, 1, 1, 1).to(images.device)
        c_r = pos_encoding.reshape(batch_size, self.condition_vector, -1).transpose(1, 2)
        e_r = activation.reshape(batch_size, dim_feature_vector, -1).transpose(1, 2)
        p_u = self.decoder(torch.cat([e_r, c_r], dim=-1))
        log_prob = -0.5 * torch.mean(p_u ** 2, dim=-1)
        return log_prob.reshape(batch_size, im_height, im_width)

model = CflowModel().to("cuda:0").eval()
images = torch.rand(2, 3, 32, 32).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    anomaly_map = model(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
