"""Look-alike: NVIDIA PartialConv2d keeps `weight_maskUpdater` as a plain CPU tensor and moves it in `forward`.

Source: https://github.com/NVIDIA/partialconv/blob/master/models/partialconv2d.py
`PartialConv2d.__init__` stores `self.weight_maskUpdater = torch.ones(...)` as a plain attribute, so
`model.to(device)` leaves it on the CPU; that is by design: `forward` checks
`if self.weight_maskUpdater.type() != input.type()` and rebinds it with `.to(input)` before the mask
convolution (and does the same for the cached `update_mask`/`mask_ratio`). An inpainting net built from
these layers runs on the GPU with the CPU kernel still visible in the namespace before the first call.
The two-layer network is a stand-in for a partial-conv inpainting U-Net; the layer is the repository's.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class PartialConv2d(nn.Conv2d):
    def __init__(self, *args, **kwargs):

        # whether the mask is multi-channel or not
        if 'multi_channel' in kwargs:
            self.multi_channel = kwargs['multi_channel']
            kwargs.pop('multi_channel')
        else:
            self.multi_channel = False

        if 'return_mask' in kwargs:
            self.return_mask = kwargs['return_mask']
            kwargs.pop('return_mask')
        else:
            self.return_mask = False

        super(PartialConv2d, self).__init__(*args, **kwargs)

        if self.multi_channel:
            self.weight_maskUpdater = torch.ones(self.out_channels, self.in_channels, self.kernel_size[0], self.kernel_size[1])
        else:
            self.weight_maskUpdater = torch.ones(1, 1, self.kernel_size[0], self.kernel_size[1])

        self.slide_winsize = self.weight_maskUpdater.shape[1] * self.weight_maskUpdater.shape[2] * self.weight_maskUpdater.shape[3]

        self.last_size = (None, None)
        self.update_mask = None
        self.mask_ratio = None

    def forward(self, input, mask=None):

        if mask is not None or self.last_size != (input.data.shape[2], input.data.shape[3]):
            self.last_size = (input.data.shape[2], input.data.shape[3])

            with torch.no_grad():
                if self.weight_maskUpdater.type() != input.type():
                    self.weight_maskUpdater = self.weight_maskUpdater.to(input)

                if mask is None:
                    # if mask is not provided, create a mask
                    if self.multi_channel:
                        mask = torch.ones(input.data.shape[0], input.data.shape[1], input.data.shape[2], input.data.shape[3]).to(input)
                    else:
                        mask = torch.ones(1, 1, input.data.shape[2], input.data.shape[3]).to(input)

                self.update_mask = F.conv2d(mask, self.weight_maskUpdater, bias=None, stride=self.stride, padding=self.padding, dilation=self.dilation, groups=1)

                self.mask_ratio = self.slide_winsize/(self.update_mask + 1e-8)
                self.update_mask = torch.clamp(self.update_mask, 0, 1)
                self.mask_ratio = torch.mul(self.mask_ratio, self.update_mask)

        if self.update_mask.type() != input.type() or self.mask_ratio.type() != input.type():
            self.update_mask = self.update_mask.to(input)
            self.mask_ratio = self.mask_ratio.to(input)

        raw_out = super(PartialConv2d, self).forward(torch.mul(input, mask) if mask is not None else input)

        if self.bias is not None:
            bias_view = self.bias.view(1, self.out_channels, 1, 1)
            output = torch.mul(raw_out - bias_view, self.mask_ratio) + bias_view
        else:
            output = torch.mul(raw_out, self.mask_ratio)

        output = torch.mul(output, self.update_mask)

        if self.return_mask:
            return output, self.update_mask
        else:
            return output

class PConvNet(nn.Module):
    """Stand-in: two multi-channel partial-conv layers of an inpainting U-Net."""
    def __init__(self):
        super().__init__()
        self.enc_1 = PartialConv2d(3, 8, 3, 1, 1, multi_channel=True, return_mask=True)
        self.enc_2 = PartialConv2d(8, 3, 3, 1, 1, multi_channel=True, return_mask=True)

    def forward(self, input, input_mask):
        h, h_mask = self.enc_1(input, input_mask)
        h_mask = h_mask.expand(-1, 8, -1, -1) if h_mask.size(1) != 8 else h_mask
        h = F.relu(h)
        out, out_mask = self.enc_2(h, h_mask)
        return out, out_mask

device = torch.device('cuda:0')
model = PConvNet().to(device)
model.eval()
gt = torch.rand(1, 3, 32, 32)
mask = (torch.rand(1, 3, 32, 32) > 0.25).float()      # 1 = valid pixel, 0 = hole
'''
CELL = '''
image = (gt * mask).to(device)
mask = mask.to(device)
with torch.no_grad():
    output, output_mask = model(image, mask)
output_comp = mask * image + (1 - mask) * output
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
