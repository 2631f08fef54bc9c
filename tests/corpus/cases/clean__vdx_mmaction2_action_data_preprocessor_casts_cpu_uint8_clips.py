"""mmaction2 (1.x) test step: the dataloader yields CPU uint8 clips, `ActionDataPreprocessor.cast_data` moves them and normalises with non-persistent mean/std buffers.

Source: https://github.com/open-mmlab/mmaction2/blob/main/mmaction/models/data_preprocessors/data_preprocessor.py
`pseudo_collate` leaves `data['inputs']` a list of CPU uint8 tensors of shape (num_clips, C, T, H, W);
`ActionDataPreprocessor.forward` first calls `self.cast_data(data)` (mmengine's
BaseDataPreprocessor, moving every tensor to the device recorded by `model.to(...)`), stacks the
batch, and normalises with `mean`/`std` registered as non-persistent buffers
(`register_buffer(..., False)`), which `model.to(device)` moves. `Recognizer3D.test_step` on the
GPU runs. Stand-in: mmengine's BaseModel/BaseDataPreprocessor device tracking and
`stack_batch` reduced to what is used, a toy 3D backbone + I3D-style head; data samples are dicts.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def stack_batch(tensor_list):
    return torch.stack(tensor_list)

class BaseDataPreprocessor(nn.Module):
    def __init__(self):
        super().__init__()
        self._device = torch.device('cpu')

    def cast_data(self, data):
        if isinstance(data, dict):
            return {key: self.cast_data(value) for key, value in data.items()}
        if isinstance(data, (list, tuple)):
            return type(data)(self.cast_data(sample) for sample in data)
        if isinstance(data, torch.Tensor):
            return data.to(self._device, non_blocking=True)
        return data

class ActionDataPreprocessor(BaseDataPreprocessor):
    def __init__(self, mean=None, std=None, format_shape='NCTHW'):
        super().__init__()
        self.format_shape = format_shape
        normalizer_shape = (-1, 1, 1, 1) if format_shape == 'NCTHW' else (-1, 1, 1)
        self.register_buffer('mean', torch.tensor(mean, dtype=torch.float32).view(normalizer_shape), False)
        self.register_buffer('std', torch.tensor(std, dtype=torch.float32).view(normalizer_shape), False)

    def forward(self, data, training=False):
        data = self.cast_data(data)
        inputs, data_samples = data['inputs'], data['data_samples']
        batch_inputs = stack_batch(inputs)
        batch_inputs = (batch_inputs - self.mean) / self.std
        data['inputs'] = batch_inputs
        return data

class BaseModel(nn.Module):
    def to(self, *args, **kwargs):
        device = torch._C._nn._parse_to(*args, **kwargs)[0]
        if device is not None:
            for module in self.modules():
                if isinstance(module, BaseDataPreprocessor):
                    module._device = torch.device(device)
        return super().to(*args, **kwargs)

class I3DHead(nn.Module):
    def __init__(self, num_classes=400, in_channels=32):
        super().__init__()
        self.avg_pool = nn.AdaptiveAvgPool3d((1, 1, 1))
        self.fc_cls = nn.Linear(in_channels, num_classes)

    def forward(self, x):
        return self.fc_cls(self.avg_pool(x).flatten(1))

class Recognizer3D(BaseModel):
    def __init__(self, data_preprocessor, num_classes=400):
        super().__init__()
        self.data_preprocessor = data_preprocessor
        self.backbone = nn.Sequential(nn.Conv3d(3, 32, (3, 7, 7), stride=(1, 2, 2), padding=(1, 3, 3)), nn.ReLU())
        self.cls_head = I3DHead(num_classes=num_classes, in_channels=32)

    def extract_feat(self, inputs):
        num_segs = inputs.shape[1]
        inputs = inputs.view((-1, ) + inputs.shape[2:])
        return self.backbone(inputs), num_segs

    def predict(self, inputs, data_samples):
        feats, num_segs = self.extract_feat(inputs)
        cls_scores = self.cls_head(feats)
        cls_scores = cls_scores.view(-1, num_segs, cls_scores.shape[-1]).softmax(-1).mean(1)   # average_clips='prob'
        for data_sample, score in zip(data_samples, cls_scores.unbind(0)):
            data_sample['pred_score'] = score
        return data_samples

    def test_step(self, data):
        data = self.data_preprocessor(data, False)
        return self.predict(data['inputs'], data['data_samples'])

data_preprocessor = ActionDataPreprocessor(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375],
                                           format_shape='NCTHW')
model = Recognizer3D(data_preprocessor, num_classes=400)
model = model.to('cuda:0')
model.eval()

# pseudo_collate output of the test dataloader: 2 videos x 3 clips x (3, 8, 32, 32) uint8 on the CPU
data_batch = dict(
    inputs=[torch.randint(0, 256, (3, 3, 8, 32, 32), dtype=torch.uint8) for _ in range(2)],
    data_samples=[dict(gt_label=torch.tensor([5])), dict(gt_label=torch.tensor([17]))],
)
'''
CELL = '''
with torch.no_grad():
    outputs = model.test_step(data_batch)
scores = torch.stack([o['pred_score'] for o in outputs])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
