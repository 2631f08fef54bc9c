"""PyTorchVideo Torch Hub SlowFast tutorial: PackPathway indexes the CPU clip with CPU indices, then each pathway is moved to the device.

Source: https://github.com/facebookresearch/pytorchvideo/issues/62
The user followed "Running a pre-trained PyTorchVideo classification model using Torch Hub" with
`slowfast_r50`. In that tutorial the transform runs on the decoded CPU clip: UniformTemporalSubsample
and `PackPathway` (`torch.index_select(frames, 1, torch.linspace(0, frames.shape[1] - 1,
frames.shape[1] // self.alpha).long())`, indices and frames both on the CPU) return a list
`[slow_pathway, fast_pathway]`, and the cell does `inputs = [i.to(device)[None, ...] for i in
inputs]` before `preds = model(inputs)` on the cuda model. Look-alike: CPU index tensors and a list
batch next to a GPU model, all consistent at the point of use. Stand-in: a two-pathway 3D-conv net
in place of slowfast_r50; the ShortSideScale/crop transforms are left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

device = "cuda:0"
side_size, num_frames, sampling_rate, slowfast_alpha = 64, 32, 2, 4
mean, std = [0.45, 0.45, 0.45], [0.225, 0.225, 0.225]

def uniform_temporal_subsample(x, num_samples, temporal_dim=-3):
    t = x.shape[temporal_dim]
    indices = torch.linspace(0, t - 1, num_samples)
    indices = torch.clamp(indices, 0, t - 1).long()
    return torch.index_select(x, temporal_dim, indices)

class PackPathway(torch.nn.Module):
    """Transform for converting video frames as a list of tensors."""
    def __init__(self):
        super().__init__()

    def forward(self, frames: torch.Tensor):
        fast_pathway = frames
        # Perform temporal sampling from the fast pathway.
        slow_pathway = torch.index_select(
            frames, 1,
            torch.linspace(0, frames.shape[1] - 1, frames.shape[1] // slowfast_alpha).long(),
        )
        return [slow_pathway, fast_pathway]

def transform(video_data):
    x = video_data["video"]
    x = uniform_temporal_subsample(x, num_frames)
    x = x / 255.0
    x = (x - torch.tensor(mean).view(3, 1, 1, 1)) / torch.tensor(std).view(3, 1, 1, 1)
    video_data["video"] = PackPathway()(x)
    return video_data

class SlowFastStub(nn.Module):
    def __init__(self, num_classes=400):
        super().__init__()
        self.slow = nn.Sequential(nn.Conv3d(3, 16, (1, 7, 7), stride=(1, 2, 2), padding=(0, 3, 3)), nn.BatchNorm3d(16), nn.ReLU())
        self.fast = nn.Sequential(nn.Conv3d(3, 4, (5, 7, 7), stride=(1, 2, 2), padding=(2, 3, 3)), nn.BatchNorm3d(4), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool3d(1)
        self.proj = nn.Linear(16 + 4, num_classes)

    def forward(self, x):
        slow, fast = x
        feats = torch.cat([self.pool(self.slow(slow)).flatten(1), self.pool(self.fast(fast)).flatten(1)], dim=1)
        return self.proj(feats)

model = SlowFastStub()
model = model.eval()
model = model.to(device)
# what EncodedVideo.get_clip(start_sec, end_sec) returns: uint8-valued float frames on the CPU, (C, T, H, W)
video_data = {"video": torch.randint(0, 256, (3, 64, side_size, side_size)).float()}
'''
CELL = '''
video_data = transform(video_data)
inputs = video_data["video"]
inputs = [i.to(device)[None, ...] for i in inputs]
with torch.no_grad():
    preds = model(inputs)
post_act = torch.nn.Softmax(dim=1)
preds = post_act(preds)
pred_classes = preds.topk(k=5).indices[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
