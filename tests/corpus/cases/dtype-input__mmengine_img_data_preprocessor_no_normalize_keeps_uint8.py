"""mmengine's ImgDataPreprocessor without mean/std hands the model the loaders' uint8 images.

Source: https://github.com/open-mmlab/mmengine/pull/301
"Fix image dtype when enable_normalize=False": the data preprocessor only turned images into floats
by normalizing them, so a model configured with `data_preprocessor=dict(type='ImgDataPreprocessor')`
and no `mean`/`std` (normalization off) got the uint8 batches of the dataloader and its first conv
failed with "Input type (torch.cuda.ByteTensor) and weight type (torch.cuda.FloatTensor) should be
the same" (the error mmsegmentation/mmdetection users met with custom datasets). The fix casts each
image with `.float()` in the preprocessor. Stand-in: ImgDataPreprocessor (channel conversion,
normalize, stack), BaseModel.train_step's preprocess-then-forward, a small conv segmentor.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ImgDataPreprocessor(nn.Module):
    def __init__(self, mean=None, std=None, pad_size_divisor=1, pad_value=0, bgr_to_rgb=False):
        super().__init__()
        if mean is not None:
            self._enable_normalize = True
            self.register_buffer('mean', torch.tensor(mean).view(-1, 1, 1), False)
            self.register_buffer('std', torch.tensor(std).view(-1, 1, 1), False)
        else:
            self._enable_normalize = False
        self._channel_conversion = bgr_to_rgb
        self.pad_size_divisor = pad_size_divisor
        self.pad_value = pad_value

    def forward(self, data, training=False):
        batch_inputs = []
        for _batch_input in data['inputs']:
            if self._channel_conversion:
                _batch_input = _batch_input[[2, 1, 0], ...]
            if self._enable_normalize:
                _batch_input = (_batch_input - self.mean) / self.std
            batch_inputs.append(_batch_input)
        return {'inputs': torch.stack(batch_inputs), 'data_samples': data.get('data_samples')}

class EncoderDecoder(nn.Module):
    def __init__(self, num_classes=3, data_preprocessor=None):
        super().__init__()
        self.data_preprocessor = data_preprocessor or ImgDataPreprocessor()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1), nn.BatchNorm2d(16), nn.ReLU())
        self.decode_head = nn.Conv2d(16, num_classes, 1)

    def forward(self, inputs, data_samples=None, mode='tensor'):
        seg_logits = self.decode_head(self.backbone(inputs))
        if mode == 'loss':
            gt = torch.stack([s['gt_sem_seg'] for s in data_samples])
            return {'decode.loss_ce': F.cross_entropy(seg_logits, gt)}
        return seg_logits

    def train_step(self, data):
        data = self.data_preprocessor(data, True)
        losses = self(**data, mode='loss')
        return losses

# model = dict(type='EncoderDecoder', data_preprocessor=dict(type='ImgDataPreprocessor'), ...)
model = EncoderDecoder(num_classes=3, data_preprocessor=ImgDataPreprocessor(bgr_to_rgb=True))
# what the dataloader's PackSegInputs yields: uint8 CHW images
data_batch = {
    'inputs': [torch.randint(0, 256, (3, 32, 32), dtype=torch.uint8) for _ in range(2)],
    'data_samples': [{'gt_sem_seg': torch.randint(0, 3, (32, 32))} for _ in range(2)],
}
'''
CELL = '''
log_vars = model.train_step(data_batch)
'''
EXPECT_ERROR = ("Input type (unsigned char) and bias type (float) should be the same",
                "Input type (torch.cuda.ByteTensor) and weight type (torch.cuda.FloatTensor)",
                "should be the same")
CULPRITS = ["model.data_preprocessor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            if self._channel_conversion:\n                _batch_input = _batch_input[[2, 1, 0], ...]\n",
                  "            if self._channel_conversion:\n                _batch_input = _batch_input[[2, 1, 0], ...]\n            _batch_input = _batch_input.float()\n")
CLEAN = False
