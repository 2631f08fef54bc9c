"""Look-alike: mmdetection's `inference_detector` builds the batch on the CPU and the model's data preprocessor moves it to the model's device.

Source: https://github.com/open-mmlab/mmdetection/pull/10070
"[Fix] Fix inference_detector fail on non-cuda and non-cpu devices": `inference_detector` prepares the
test pipeline's output on the CPU and relies on the detector to put it on the weights' device (the PR
replaces an `is_cuda`-only move by a device-generic one). In MMDetection 3.x the model's
`DetDataPreprocessor.cast_data` moves the whole `data` dict (`inputs` list, data samples) to the
model's device before normalizing and stacking. A CPU batch handed to a GPU detector's `test_step` is
therefore correct: no finding expected. Stand-in: BaseDataPreprocessor.cast_data / DetDataPreprocessor
(normalize, stack) and a detector with `test_step`; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class DetDataPreprocessor(nn.Module):
    def __init__(self, mean=(123.675, 116.28, 103.53), std=(58.395, 57.12, 57.375), bgr_to_rgb=True):
        super().__init__()
        self.register_buffer('mean', torch.tensor(mean).view(-1, 1, 1), False)
        self.register_buffer('std', torch.tensor(std).view(-1, 1, 1), False)
        self._channel_conversion = bgr_to_rgb
        self._device = torch.device('cpu')

    @property
    def device(self):
        return self._device

    def to(self, *args, **kwargs):
        self._device = torch._C._nn._parse_to(*args, **kwargs)[0]
        return super().to(*args, **kwargs)

    def cast_data(self, data):
        if isinstance(data, dict):
            return {k: self.cast_data(v) for k, v in data.items()}
        if isinstance(data, (list, tuple)):
            return type(data)(self.cast_data(d) for d in data)
        if isinstance(data, torch.Tensor):
            return data.to(self.device, non_blocking=True)
        return data

    def forward(self, data, training=False):
        data = self.cast_data(data)
        inputs = []
        for _input in data['inputs']:
            if self._channel_conversion:
                _input = _input.flip(0)
            inputs.append((_input.float() - self.mean) / self.std)
        return {'inputs': torch.stack(inputs), 'data_samples': data['data_samples']}

class SingleStageDetector(nn.Module):
    def __init__(self, num_classes=80):
        super().__init__()
        self.data_preprocessor = DetDataPreprocessor()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 4, 1), nn.ReLU())
        self.bbox_head = nn.Conv2d(16, 4 + num_classes, 1)

    def to(self, *args, **kwargs):
        self.data_preprocessor.to(*args, **kwargs)
        return super().to(*args, **kwargs)

    def test_step(self, data):
        data = self.data_preprocessor(data, False)
        out = self.bbox_head(self.backbone(data['inputs']))
        return [{'bboxes': out[:, :4].flatten(2), 'scores': out[:, 4:].sigmoid().flatten(2)}]

def inference_detector(model, imgs):
    data_ = {'inputs': [torch.as_tensor(img).permute(2, 0, 1) for img in imgs],     # test_pipeline(...)
             'data_samples': [{'img_shape': img.shape[:2]} for img in imgs]}
    with torch.no_grad():
        return model.test_step(data_)

model = SingleStageDetector().to('meta')        # init_detector(config, checkpoint, device='cuda:0')
model.eval()
imgs = [torch.randint(0, 256, (64, 64, 3), dtype=torch.uint8).numpy()]       # mmcv.imread(...)
'''
CELL = '''
result = inference_detector(model, imgs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
