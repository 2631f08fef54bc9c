"""Look-alike: mmsegmentation's SegDataPreProcessor takes the dataloader's uint8 CPU images, moves them to the model's device, casts to float and normalizes with its own mean/std buffers.

Source: https://github.com/open-mmlab/mmsegmentation/blob/main/mmseg/models/data_preprocessor.py
The dataloader hands `data = {'inputs': [uint8 CHW tensor on the CPU], 'data_samples': [...]}` to
`model.test_step` / `model.data_preprocessor(data)`. `SegDataPreProcessor.forward` calls
`self.cast_data(data)` (mmengine: move everything to the preprocessor's device), flips BGR to RGB,
casts `_input.float()` and normalizes with `self.mean` / `self.std`, registered as non-persistent
buffers so `model.to(device)` moves them with the model. uint8 CPU images and float CUDA weights in
one namespace are the design, not a bug. Nothing to report. Stand-ins: mmengine's
BaseDataPreprocessor.cast_data and device tracking, a conv backbone and FCN-style decode head in
an EncoderDecoder with a `predict` path; SegDataSample reduced to a dict.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class BaseDataPreprocessor(nn.Module):
    """Stand-in for mmengine.model.BaseDataPreprocessor (cast_data / to)."""
    def __init__(self):
        super().__init__()
        self._device = torch.device('cpu')

    def cast_data(self, data):
        if isinstance(data, dict):
            return {k: self.cast_data(v) for k, v in data.items()}
        if isinstance(data, (list, tuple)):
            return type(data)(self.cast_data(v) for v in data)
        if isinstance(data, torch.Tensor):
            return data.to(self._device, non_blocking=True)
        return data

    def to(self, *args, **kwargs):
        device = torch._C._nn._parse_to(*args, **kwargs)[0]
        if device is not None:
            self._device = torch.device(device)
        return super().to(*args, **kwargs)

class SegDataPreProcessor(BaseDataPreprocessor):
    def __init__(self, mean=None, std=None, size=None, size_divisor=None, pad_val=0,
                 seg_pad_val=255, bgr_to_rgb=False, rgb_to_bgr=False, test_cfg=None):
        super().__init__()
        self.size = size
        self.pad_val = pad_val
        self.seg_pad_val = seg_pad_val
        self.channel_conversion = rgb_to_bgr or bgr_to_rgb
        if mean is not None:
            self._enable_normalize = True
            self.register_buffer('mean', torch.tensor(mean).view(-1, 1, 1), False)
            self.register_buffer('std', torch.tensor(std).view(-1, 1, 1), False)
        else:
            self._enable_normalize = False
        self.test_cfg = test_cfg

    def forward(self, data, training=False):
        data = self.cast_data(data)
        inputs = data['inputs']
        data_samples = data.get('data_samples', None)
        if self.channel_conversion and inputs[0].size(0) == 3:
            inputs = [_input.flip(0) for _input in inputs]          # _input[[2, 1, 0], ...]
        inputs = [_input.float() for _input in inputs]
        if self._enable_normalize:
            inputs = [(_input - self.mean) / self.std for _input in inputs]
        inputs = torch.stack(inputs, dim=0)
        return dict(inputs=inputs, data_samples=data_samples)

class FCNHead(nn.Module):
    def __init__(self, in_channels=32, channels=16, num_classes=19):
        super().__init__()
        self.convs = nn.Sequential(nn.Conv2d(in_channels, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU())
        self.conv_seg = nn.Conv2d(channels, num_classes, 1)

    def forward(self, x):
        return self.conv_seg(self.convs(x))

class EncoderDecoder(nn.Module):
    def __init__(self, data_preprocessor):
        super().__init__()
        self.data_preprocessor = data_preprocessor
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=4, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.decode_head = FCNHead()

    def to(self, *args, **kwargs):
        self.data_preprocessor.to(*args, **kwargs)
        return super().to(*args, **kwargs)

    def predict(self, inputs, data_samples=None):
        seg_logits = self.decode_head(self.backbone(inputs))
        seg_logits = F.interpolate(seg_logits, size=inputs.shape[2:], mode='bilinear', align_corners=False)
        return seg_logits.argmax(dim=1)

    def test_step(self, data):
        data = self.data_preprocessor(data, False)
        return self.predict(**data)

data_preprocessor = SegDataPreProcessor(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375],
                                        bgr_to_rgb=True, pad_val=0, seg_pad_val=255)
model = EncoderDecoder(data_preprocessor)
model.to('cuda:0')
model.eval()

# what the test dataloader yields: a list of uint8 CHW images on the CPU
data = {'inputs': [torch.randint(0, 256, (3, 64, 96), dtype=torch.uint8)],
        'data_samples': [{'img_path': 'demo.png', 'ori_shape': (64, 96)}]}
'''
CELL = '''
with torch.no_grad():
    pred_sem_seg = model.test_step(data)
print(pred_sem_seg.shape, pred_sem_seg.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
