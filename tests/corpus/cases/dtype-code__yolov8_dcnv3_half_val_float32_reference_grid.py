"""YOLOv8 with DCNv3: half-precision validation feeds grid_sample a float32 sampling grid built by `_get_reference_points`.

Source: https://github.com/jiangjh0908/Yolov8_with_DCNv3/issues/12
"RuntimeError: expected scalar type Half but found Float" in `dcnv3_core_pytorch` at
`F.grid_sample(input_, sampling_grid_, ...)`: training ran, but the validation during training
failed ("这个在训练中没出现 但是在验证中出现了"). The validator runs the model in FP16
(`self.args.half = self.device.type != 'cpu'`), while the pure-PyTorch DCNv3 core builds its reference
points and dilation grids with `torch.linspace(..., dtype=torch.float32)`, so the sampling grid is
float32 next to half features (the maintainer's workaround: turn FP16 validation off). Stand-in: the
DCNv3_pytorch block (InternImage's dcnv3_core_pytorch and helpers) in a two-layer model, the validator
step by `model.half()` and a half batch.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def _get_reference_points(spatial_shapes, device, kernel_h, kernel_w, dilation_h, dilation_w, pad_h=0, pad_w=0, stride_h=1, stride_w=1):
    _, H_, W_, _ = spatial_shapes
    H_out = (H_ - (dilation_h * (kernel_h - 1) + 1)) // stride_h + 1
    W_out = (W_ - (dilation_w * (kernel_w - 1) + 1)) // stride_w + 1
    ref_y, ref_x = torch.meshgrid(
        torch.linspace((dilation_h * (kernel_h - 1)) // 2 + 0.5,
                       (dilation_h * (kernel_h - 1)) // 2 + 0.5 + (H_out - 1) * stride_h,
                       H_out, dtype=torch.float32, device=device),
        torch.linspace((dilation_w * (kernel_w - 1)) // 2 + 0.5,
                       (dilation_w * (kernel_w - 1)) // 2 + 0.5 + (W_out - 1) * stride_w,
                       W_out, dtype=torch.float32, device=device), indexing="ij")
    ref_y = ref_y.reshape(-1)[None] / H_
    ref_x = ref_x.reshape(-1)[None] / W_
    return torch.stack((ref_x, ref_y), -1).reshape(1, H_out, W_out, 1, 2)

def _generate_dilation_grids(spatial_shapes, kernel_h, kernel_w, dilation_h, dilation_w, group, device):
    _, H_, W_, _ = spatial_shapes
    x, y = torch.meshgrid(
        torch.linspace(-((dilation_w * (kernel_w - 1)) // 2),
                       -((dilation_w * (kernel_w - 1)) // 2) + (kernel_w - 1) * dilation_w, kernel_w,
                       dtype=torch.float32, device=device),
        torch.linspace(-((dilation_h * (kernel_h - 1)) // 2),
                       -((dilation_h * (kernel_h - 1)) // 2) + (kernel_h - 1) * dilation_h, kernel_h,
                       dtype=torch.float32, device=device), indexing="ij")
    grid = torch.stack([x / W_, y / H_], -1).reshape(-1, 1, 2).repeat(1, group, 1).permute(1, 0, 2)
    return grid.reshape(1, 1, 1, group * kernel_h * kernel_w, 2)

def dcnv3_core_pytorch(input, offset, mask, kernel_h, kernel_w, stride_h, stride_w, pad_h, pad_w,
                       dilation_h, dilation_w, group, group_channels, offset_scale):
    input = F.pad(input, [0, 0, pad_h, pad_h, pad_w, pad_w])
    N_, H_in, W_in, _ = input.shape
    _, H_out, W_out, _ = offset.shape
    ref = _get_reference_points(input.shape, input.device, kernel_h, kernel_w, dilation_h, dilation_w,
                                pad_h, pad_w, stride_h, stride_w)
    grid = _generate_dilation_grids(input.shape, kernel_h, kernel_w, dilation_h, dilation_w, group, input.device)
    spatial_norm = torch.tensor([W_in, H_in]).reshape(1, 1, 1, 2).repeat(1, 1, 1, group * kernel_h * kernel_w).to(input.device)
    sampling_locations = (ref + grid * offset_scale).repeat(N_, 1, 1, 1, 1).flatten(3, 4) + \\
        offset * offset_scale / spatial_norm
    P_ = kernel_h * kernel_w
    sampling_grids = 2 * sampling_locations - 1
    input_ = input.view(N_, H_in * W_in, group * group_channels).transpose(1, 2).reshape(N_ * group, group_channels, H_in, W_in)
    sampling_grid_ = sampling_grids.view(N_, H_out * W_out, group, P_, 2).transpose(1, 2).flatten(0, 1)
    sampling_input_ = F.grid_sample(input_, sampling_grid_, mode='bilinear', padding_mode='zeros', align_corners=False)
    mask = mask.view(N_, H_out * W_out, group, P_).transpose(1, 2).reshape(N_ * group, 1, H_out * W_out, P_)
    output = (sampling_input_ * mask).sum(-1).view(N_, group * group_channels, H_out * W_out)
    return output.transpose(1, 2).reshape(N_, H_out, W_out, -1).contiguous()

class DCNv3_pytorch(nn.Module):
    def __init__(self, channels=16, kernel_size=3, stride=1, pad=1, dilation=1, group=4, offset_scale=1.0):
        super().__init__()
        self.channels, self.kernel_size, self.stride, self.pad = channels, kernel_size, stride, pad
        self.dilation, self.group, self.offset_scale = dilation, group, offset_scale
        self.group_channels = channels // group
        self.dw_conv = nn.Conv2d(channels, channels, kernel_size, 1, (kernel_size - 1) // 2, groups=channels)
        self.dw_norm = nn.LayerNorm(channels)
        self.offset = nn.Linear(channels, group * kernel_size * kernel_size * 2)
        self.mask = nn.Linear(channels, group * kernel_size * kernel_size)
        self.input_proj = nn.Linear(channels, channels)
        self.output_proj = nn.Linear(channels, channels)

    def forward(self, input):
        N, H, W, _ = input.shape
        x = self.input_proj(input)
        x1 = self.dw_conv(input.permute(0, 3, 1, 2))
        x1 = F.gelu(self.dw_norm(x1.permute(0, 2, 3, 1)))
        offset = self.offset(x1)
        mask = self.mask(x1).reshape(N, H, W, self.group, -1)
        mask = F.softmax(mask, -1).reshape(N, H, W, -1)
        x = dcnv3_core_pytorch(x, offset, mask, self.kernel_size, self.kernel_size, self.stride, self.stride,
                               self.pad, self.pad, self.dilation, self.dilation, self.group,
                               self.group_channels, self.offset_scale)
        return self.output_proj(x)

class DCNV3_YoLo(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, 3, 2, 1)
        self.dcnv3 = DCNv3_pytorch(c2)

    def forward(self, x):
        x = self.conv(x).permute(0, 2, 3, 1)
        return self.dcnv3(x).permute(0, 3, 1, 2)

class DetectionModel(nn.Module):
    def __init__(self, nc=2):
        super().__init__()
        self.model = nn.Sequential(DCNV3_YoLo(3, 16), nn.Conv2d(16, 4 + nc, 1))

    def forward(self, x):
        return self.model(x)

model = DetectionModel()
# BaseValidator.__call__ during training: self.args.half = self.device.type != 'cpu'; model = model.half()
model = model.half()
batch = {"img": torch.randint(0, 256, (2, 3, 32, 32), dtype=torch.uint8)}
imgs = batch["img"].half() / 255
'''
CELL = '''
preds = model(imgs)
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "expected input and grid to have same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    sampling_grids = 2 * sampling_locations - 1\n",
                  "    sampling_grids = (2 * sampling_locations - 1).to(input.dtype)\n")
CLEAN = False
