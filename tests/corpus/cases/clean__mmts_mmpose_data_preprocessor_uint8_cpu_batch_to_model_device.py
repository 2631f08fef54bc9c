"""Look-alike: mmpose inference hands a uint8 CPU image batch to a GPU pose model; its data preprocessor casts, moves and normalizes it.

Source: https://github.com/open-mmlab/mmpose/blob/main/mmpose/models/data_preprocessors/data_preprocessor.py
`PoseDataPreprocessor` (mmengine's `ImgDataPreprocessor`) keeps `mean`/`std` as non-persistent
buffers, and in `forward` moves the packed uint8 inputs with `self.cast_data(...)` to the model's
device, converts them to float and normalizes them; `inference_topdown` therefore builds its batch
on the CPU from the loaded image. Nothing to report. Stand-in: the preprocessor and a tiny
heatmap model with `test_step`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class PoseDataPreprocessor(nn.Module):
    def __init__(self, mean=(123.675, 116.28, 103.53), std=(58.395, 57.12, 57.375)):
        super().__init__()
        self.register_buffer('mean', torch.tensor(mean).view(-1, 1, 1), False)
        self.register_buffer('std', torch.tensor(std).view(-1, 1, 1), False)

    @property
    def device(self):
        return self.mean.device

    def cast_data(self, data):
        return {k: v.to(self.device) if isinstance(v, torch.Tensor) else v for k, v in data.items()}

    def forward(self, data, training=False):
        data = self.cast_data(data)
        inputs = data['inputs'].float()
        inputs = (inputs - self.mean) / self.std
        return {'inputs': inputs, 'data_samples': data['data_samples']}

class TopdownPoseEstimator(nn.Module):
    def __init__(self, num_keypoints=17):
        super().__init__()
        self.data_preprocessor = PoseDataPreprocessor()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
        self.head = nn.Conv2d(16, num_keypoints, 1)

    @torch.no_grad()
    def test_step(self, data):
        data = self.data_preprocessor(data, False)
        return self.head(self.backbone(data['inputs']))

model = TopdownPoseEstimator().to("cuda:0")     # init_model(config, checkpoint, device='cuda:0')
model.eval()
img = torch.randint(0, 256, (1, 3, 64, 48), dtype=torch.uint8)   # LoadImage + PackPoseInputs
batch = {'inputs': img, 'data_samples': [{'bbox': [0, 0, 48, 64]}]}
'''
CELL = '''
heatmaps = model.test_step(batch)
print(heatmaps.shape, heatmaps.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
