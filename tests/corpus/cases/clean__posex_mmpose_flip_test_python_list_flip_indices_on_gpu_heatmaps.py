"""Look-alike: mmpose's flip test swaps left/right heatmaps of a GPU tensor with a plain Python list of indices from the dataset meta.

Source: https://github.com/open-mmlab/mmpose/blob/main/mmpose/models/utils/tta.py
With `test_cfg=dict(flip_test=True)`, `TopdownPoseEstimator` runs the backbone on the image and on
`inputs.flip(-1)`, and `HeatmapHead.predict` calls `flip_heatmaps(heatmaps, flip_mode='heatmap',
flip_indices=batch_data_samples[0].metainfo['flip_indices'], shift_heatmap=True)`: the
`flip_indices` are a Python list built from the dataset's keypoint info (CPU data) used to index
heatmaps on the GPU, which PyTorch accepts; then the two heatmaps are averaged. Nothing to report.
Stand-in: `flip_heatmaps` as in the file, a `HeatmapHead.predict` reduced to the TTA averaging
(the codec decode to numpy keypoints is left out), a two-conv backbone; the GPU is simulated by
meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def flip_heatmaps(heatmaps, flip_indices=None, flip_mode='heatmap', shift_heatmap=True):
    if flip_mode == 'heatmap':
        heatmaps = heatmaps.flip(-1)
        if flip_indices is not None:
            assert len(flip_indices) == heatmaps.shape[1]
            heatmaps = heatmaps[:, flip_indices]
    else:
        raise ValueError(f'Invalid flip_mode value "{flip_mode}"')

    if shift_heatmap:
        # clone data to avoid unexpected in-place operation when using CPU
        heatmaps[..., 1:] = heatmaps[..., :-1].clone()

    return heatmaps

class HeatmapHead(nn.Module):
    def __init__(self, in_channels=32, out_channels=17):
        super().__init__()
        self.deconv = nn.Sequential(nn.ConvTranspose2d(in_channels, in_channels, 4, 2, 1), nn.ReLU())
        self.final_layer = nn.Conv2d(in_channels, out_channels, 1)

    def forward(self, feats):
        return self.final_layer(self.deconv(feats[-1]))

    def predict(self, feats, batch_data_samples, test_cfg={}):
        if test_cfg.get('flip_test', False):
            # TTA: flip test -> feats = [orig, flipped]
            assert isinstance(feats, list) and len(feats) == 2
            flip_indices = batch_data_samples[0]['metainfo']['flip_indices']
            _feats, _feats_flip = feats
            _batch_heatmaps = self.forward(_feats)
            _batch_heatmaps_flip = flip_heatmaps(
                self.forward(_feats_flip),
                flip_mode=test_cfg.get('flip_mode', 'heatmap'),
                flip_indices=flip_indices,
                shift_heatmap=test_cfg.get('shift_heatmap', False))
            batch_heatmaps = (_batch_heatmaps + _batch_heatmaps_flip) * 0.5
        else:
            batch_heatmaps = self.forward(feats)
        return batch_heatmaps   # preds = self.decode(batch_heatmaps)

class TopdownPoseEstimator(nn.Module):
    def __init__(self, test_cfg):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU())
        self.head = HeatmapHead(32, 17)
        self.test_cfg = test_cfg

    def extract_feat(self, inputs):
        return (self.backbone(inputs),)

    def predict(self, inputs, data_samples):
        if self.test_cfg.get('flip_test', False):
            _feats = self.extract_feat(inputs)
            _feats_flip = self.extract_feat(inputs.flip(-1))
            feats = [_feats, _feats_flip]
        else:
            feats = self.extract_feat(inputs)
        return self.head.predict(feats, data_samples, test_cfg=self.test_cfg)

# COCO keypoints: nose, eyes, ears, shoulders, elbows, wrists, hips, knees, ankles
flip_indices = [0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15]
device = torch.device("meta")   # 'cuda:0', simulated with meta
model = TopdownPoseEstimator(test_cfg=dict(flip_test=True, flip_mode='heatmap', shift_heatmap=True)).to(device)
model.eval()
inputs = torch.rand(2, 3, 64, 48).to(device)            # after PoseDataPreprocessor
data_samples = [{'metainfo': {'flip_indices': flip_indices}} for _ in range(2)]
'''
CELL = '''
with torch.no_grad():
    heatmaps = model.predict(inputs, data_samples)
print(heatmaps.shape, heatmaps.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
