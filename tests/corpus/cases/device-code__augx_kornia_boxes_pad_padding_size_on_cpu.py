"""kornia `AugmentationSequential(RandomCrop(..., padding=...))` on CUDA images and boxes: `Boxes.pad` gets a CPU `padding_size`.

Source: https://github.com/kornia/kornia/pull/2197
"Move padding_size to device in pad for boxes": running a padded `RandomCrop` through
`AugmentationSequential` with a bounding-box data key on the GPU threw a device-mismatch error, because the
`padding_size` tensor (built with the crop's parameters, on the CPU) was "not on the right device" when
`Boxes.pad` added it to the box coordinates, which live on the images' device. The fix in the PR: move
`padding_size` to the boxes' device inside `Boxes.pad`.
Stand-in: `Boxes` (corner points, `from_tensor`/`pad`/`data`), a reduced `RandomCrop` that only pads, and an
`AugmentationSequential` that routes the box key through `Boxes.pad` as kornia's container does.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class Boxes:
    def __init__(self, data):
        self._data = data                      # (B, N, 4, 2) box corners (x, y)

    @classmethod
    def from_tensor(cls, boxes):               # boxes in xyxy, (B, N, 4)
        x1, y1, x2, y2 = boxes.split(1, dim=-1)
        corners = torch.stack([torch.cat([x1, y1], -1), torch.cat([x2, y1], -1),
                               torch.cat([x2, y2], -1), torch.cat([x1, y2], -1)], dim=-2)
        return cls(corners)

    def pad(self, padding_size):
        """padding_size: (B, 4) as (left, right, top, bottom)."""
        offset = torch.cat([padding_size[:, 0:1], padding_size[:, 2:3]], dim=-1)[:, None, None, :]
        self._data = self._data + offset       # kornia: self._data[..., 0] += padding_size[..., None, :1], same for y
        return self

    @property
    def data(self):
        return self._data

class RandomCrop(nn.Module):
    def __init__(self, size, padding=0, p=1.0):
        super().__init__()
        self.size, self.padding, self.p = size, padding, p

    def forward_parameters(self, batch_shape):
        b = batch_shape[0]
        pad = self.padding
        return {"padding_size": torch.tensor([[pad, pad, pad, pad]] * b)}   # generated on the CPU

    def apply_transform(self, input, params):
        return F.pad(input, [self.padding] * 4)

class AugmentationSequential(nn.Module):
    def __init__(self, *args, data_keys=("input",)):
        super().__init__()
        self.augs = nn.ModuleList(args)
        self.data_keys = list(data_keys)

    def forward(self, *inputs):
        out = list(inputs)
        for aug in self.augs:
            params = aug.forward_parameters(out[0].shape)
            for i, key in enumerate(self.data_keys):
                if key == "input":
                    out[i] = aug.apply_transform(out[i], params)
                elif key == "bbox_xyxy":
                    out[i] = Boxes.from_tensor(out[i]).pad(params["padding_size"]).data
        return out

aug = AugmentationSequential(RandomCrop((32, 32), padding=4), data_keys=["input", "bbox_xyxy"])
img = torch.rand(2, 3, 32, 32, device="cuda:0")
bbox = torch.tensor([[[4.0, 4.0, 20.0, 20.0]], [[8.0, 2.0, 16.0, 30.0]]], device="cuda:0")
'''
CELL = '''
img_out, bbox_out = aug(img, bbox)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["aug"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('        """padding_size: (B, 4) as (left, right, top, bottom)."""\n',
                  '        """padding_size: (B, 4) as (left, right, top, bottom)."""\n'
                  '        padding_size = padding_size.to(self._data.device)\n')
CLEAN = False
