"""Look-alike: first-order-model `make_animation` keeps the whole driving video on the CPU, moves each frame itself, and lets DataParallel scatter the first frame.

Source: https://github.com/AliaksandrSiarohin/first-order-model (demo.py, load_checkpoints / make_animation)
`load_checkpoints` puts the OcclusionAwareGenerator and KPDetector on the GPU and wraps both in
`DataParallelWithCallback`; `make_animation` moves only `source` to cuda and builds the full driving clip
as a CPU tensor. `kp_detector(driving[:, :, 0])` gets a CPU frame (DataParallel's scatter copies it to
device_ids[0]); inside the loop each `driving_frame` is sent with `.cuda()`; predictions come back with
`.data.cpu()`. All deliberate and it runs.
Stand-ins: KPDetector and OcclusionAwareGenerator as tiny convs with FOMM's output dicts,
`DataParallelWithCallback` as its scatter step (moving tensor inputs to device_ids[0]), `normalize_kp`
from animate.py; `.cuda()` written `.to('cuda:0')`, and the final `np.transpose(... .numpy())` left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class KPDetector(nn.Module):                  # modules/keypoint_detector.py (reduced)
    def __init__(self, num_kp=10, num_channels=3):
        super().__init__()
        self.num_kp = num_kp
        self.predictor = nn.Sequential(nn.Conv2d(num_channels, 8, 3, stride=2, padding=1), nn.ReLU(),
                                       nn.AdaptiveAvgPool2d(1))
        self.kp = nn.Linear(8, num_kp * 2)
        self.jacobian = nn.Linear(8, num_kp * 4)

    def forward(self, x):
        feature = self.predictor(x).flatten(1)
        value = torch.tanh(self.kp(feature)).view(x.shape[0], self.num_kp, 2)
        jacobian = self.jacobian(feature).view(x.shape[0], self.num_kp, 2, 2) + torch.eye(2, device=x.device)
        return {'value': value, 'jacobian': jacobian}

class OcclusionAwareGenerator(nn.Module):     # modules/generator.py (reduced)
    def __init__(self, num_channels=3, num_kp=10):
        super().__init__()
        self.first = nn.Conv2d(num_channels, 8, 3, padding=1)
        self.motion = nn.Linear(num_kp * 2, 8)
        self.final = nn.Conv2d(8, num_channels, 3, padding=1)

    def forward(self, source_image, kp_driving, kp_source):
        out = self.first(source_image)
        shift = self.motion((kp_driving['value'] - kp_source['value']).flatten(1))
        out = out + shift[:, :, None, None]
        return {'prediction': torch.sigmoid(self.final(out))}

class DataParallelWithCallback(nn.Module):   # sync_batchnorm.DataParallelWithCallback: scatter to device_ids[0]
    def __init__(self, module, device_ids=None):
        super().__init__()
        self.module = module
        self.device_ids = device_ids or [torch.device('cuda:0')]

    def _scatter(self, obj):
        if torch.is_tensor(obj):
            return obj.to(self.device_ids[0])
        if isinstance(obj, dict):
            return {k: self._scatter(v) for k, v in obj.items()}
        return obj

    def forward(self, *inputs, **kwargs):
        inputs = tuple(self._scatter(i) for i in inputs)
        kwargs = {k: self._scatter(v) for k, v in kwargs.items()}
        return self.module(*inputs, **kwargs)

def normalize_kp(kp_source, kp_driving, kp_driving_initial, adapt_movement_scale=False,
                 use_relative_movement=False, use_relative_jacobian=False):
    adapt_movement_scale = 1          # (ConvexHull areas when adapt_movement_scale)
    kp_new = {k: v for k, v in kp_driving.items()}
    if use_relative_movement:
        kp_value_diff = (kp_driving['value'] - kp_driving_initial['value'])
        kp_value_diff *= adapt_movement_scale
        kp_new['value'] = kp_value_diff + kp_source['value']
        if use_relative_jacobian:
            jacobian_diff = torch.matmul(kp_driving['jacobian'], torch.inverse(kp_driving_initial['jacobian']))
            kp_new['jacobian'] = torch.matmul(jacobian_diff, kp_source['jacobian'])
    return kp_new

def load_checkpoints(config_path, checkpoint_path, cpu=False):
    generator = OcclusionAwareGenerator()
    if not cpu:
        generator.to('cuda:0')                # generator.cuda()
    kp_detector = KPDetector()
    if not cpu:
        kp_detector.to('cuda:0')              # kp_detector.cuda()
    # checkpoint = torch.load(checkpoint_path); generator/kp_detector.load_state_dict(...)
    if not cpu:
        generator = DataParallelWithCallback(generator)
        kp_detector = DataParallelWithCallback(kp_detector)
    generator.eval()
    kp_detector.eval()
    return generator, kp_detector

generator, kp_detector = load_checkpoints(config_path='config/vox-256.yaml', checkpoint_path='vox-cpk.pth.tar', cpu=False)
rng = np.random.default_rng(0)
source_image = rng.random((32, 32, 3))                        # resize(source_image, (256, 256))[..., :3]
driving_video = [rng.random((32, 32, 3)) for _ in range(3)]   # resized driving frames
relative, adapt_scale, cpu = True, False, False
'''
CELL = '''
with torch.no_grad():
    predictions = []
    source = torch.tensor(source_image[np.newaxis].astype(np.float32)).permute(0, 3, 1, 2)
    if not cpu:
        source = source.to('cuda:0')          # source.cuda()
    driving = torch.tensor(np.array(driving_video)[np.newaxis].astype(np.float32)).permute(0, 4, 1, 2, 3)
    kp_source = kp_detector(source)
    kp_driving_initial = kp_detector(driving[:, :, 0])

    for frame_idx in range(driving.shape[2]):
        driving_frame = driving[:, :, frame_idx]
        if not cpu:
            driving_frame = driving_frame.to('cuda:0')   # driving_frame.cuda()
        kp_driving = kp_detector(driving_frame)
        kp_norm = normalize_kp(kp_source=kp_source, kp_driving=kp_driving,
                               kp_driving_initial=kp_driving_initial, use_relative_movement=relative,
                               use_relative_jacobian=relative, adapt_movement_scale=adapt_scale)
        out = generator(source, kp_source=kp_source, kp_driving=kp_norm)
        predictions.append(out['prediction'].data.cpu())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
