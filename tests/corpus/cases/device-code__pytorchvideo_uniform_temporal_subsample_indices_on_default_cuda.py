"""pytorchvideo: UniformTemporalSubsample builds its frame indices on the default device (cuda) while the decoded clip is on the CPU.

Source: https://github.com/facebookresearch/pytorchvideo/issues/256
With `torch.set_default_device('cuda')` set globally, ImageBind's `load_and_transform_video_data`
failed in `uniform_temporal_subsample`: `indices = torch.linspace(0, t - 1, num_samples)` is created
on the default (cuda) device, the decoded video clip `x` is a CPU tensor, and
`torch.index_select(x, temporal_dim, indices)` raised "Expected all tensors to be on the same device,
but found at least two devices, cpu and cuda:0! (... argument index in method
wrapper_CUDA__index_select)". The fix (PR #257) moves `indices` to `x.device`.
Stand-in: pytorchvideo's functional + UniformTemporalSubsample, and ImageBind's loop over clips with
the EncodedVideo decoder replaced by CPU uint8 clips.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

torch.set_default_device("cuda:0")

def uniform_temporal_subsample(x, num_samples, temporal_dim=-3):
    t = x.shape[temporal_dim]
    assert num_samples > 0 and t > 0
    # Sample by nearest neighbor interpolation if num_samples > t.
    indices = torch.linspace(0, t - 1, num_samples)
    indices = torch.clamp(indices, 0, t - 1).long()
    return torch.index_select(x, temporal_dim, indices)

class UniformTemporalSubsample(torch.nn.Module):
    def __init__(self, num_samples, temporal_dim=-3):
        super().__init__()
        self._num_samples = num_samples
        self._temporal_dim = temporal_dim

    def forward(self, x):
        return uniform_temporal_subsample(x, self._num_samples, self._temporal_dim)

clip_duration = 2
clips_per_video = 5
frame_sampler = UniformTemporalSubsample(num_samples=clip_duration)
# what EncodedVideo.get_clip returns: decoded frames on the CPU, (C, T, H, W)
decoded_clips = [{"video": torch.randint(0, 256, (3, 30, 64, 64), dtype=torch.uint8, device="cpu").float()}
                 for _ in range(clips_per_video)]
'''
CELL = '''
all_video = []
for clip in decoded_clips:
    video_clip = frame_sampler(clip["video"])
    video_clip = video_clip / 255.0
    all_video.append(video_clip)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["frame_sampler"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    indices = torch.clamp(indices, 0, t - 1).long()\n",
    "    indices = torch.clamp(indices, 0, t - 1).long()\n    if indices.device != x.device:\n        indices = indices.to(x.device)\n",
)
CLEAN = False
