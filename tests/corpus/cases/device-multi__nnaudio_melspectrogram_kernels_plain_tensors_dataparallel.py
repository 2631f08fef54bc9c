"""nnAudio under DataParallel: the spectrogram layer's STFT kernels are plain tensors made on cuda:0.

Source: https://github.com/KinWaiCheuk/nnAudio/issues/31
Training a MobileNet on audio with `nn.DataParallel` failed with "Caught RuntimeError in replica 1 on
device 1 ... Expected tensor for argument #1 'input' to have the same device as tensor for argument
#2 'weight'" at `conv1d(x, self.wsin, stride=self.stride)`: `Spectrogram.MelSpectrogram.__init__`
stores `wsin`, `wcos` and `mel_basis` as `torch.tensor(..., device=self.device)` attributes
(default `device='cuda:0'`), which DataParallel's replicate does not copy, so the replica on cuda:1
convolves its cuda:1 chunk with cuda:0 kernels. Later nnAudio versions register them as buffers.
Stand-ins: Fourier/mel kernels from random numbers, a tiny MobileNet, and `nn.DataParallel` with
hand-made scatter/replicate/gather as on a 2-GPU machine (taken from the PC-DARTS case).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import numpy as np
import torch
from torch import nn
from torch.nn.functional import conv1d

class DataParallel(nn.DataParallel):
    # stand-in: nn.DataParallel on a machine with GPUs 0 and 1, torch's own forward; scatter,
    # replicate, parallel_apply and gather done by hand (a CPU build has no NCCL). Like torch's
    # replicate, it copies parameters and buffers to each GPU and leaves other attributes as they are.
    def __init__(self, module, device_ids=(0, 1)):
        nn.Module.__init__(self)
        self.module, self.dim = module, 0
        self.device_ids = list(device_ids)
        self.output_device = self.device_ids[0]
        self.src_device_obj = torch.device(f"cuda:{self.device_ids[0]}")

    def scatter(self, inputs, kwargs, device_ids):
        chunks = [t.chunk(len(device_ids)) for t in inputs]
        return (tuple(tuple(c[i].to(f"cuda:{d}") for c in chunks) for i, d in enumerate(device_ids)),
                tuple(kwargs for _ in device_ids))

    def replicate(self, module, device_ids):
        replicas = [module]
        for d in device_ids[1:]:
            replica = copy.deepcopy(module)
            for m in replica.modules():
                for k, p in m._parameters.items():
                    if p is not None:
                        m._parameters[k] = nn.Parameter(p.detach().to(f"cuda:{d}"), p.requires_grad)
                for k, b in m._buffers.items():
                    if b is not None:
                        m._buffers[k] = b.to(f"cuda:{d}")
            replicas.append(replica)
        return replicas

    def parallel_apply(self, replicas, inputs, kwargs):
        return [r(*i, **k) for r, i, k in zip(replicas, inputs, kwargs)]

    def gather(self, outputs, output_device):
        return torch.cat([o.to(f"cuda:{output_device}") for o in outputs], dim=self.dim)

def create_fourier_kernels(n_fft, sr=22050):
    rng = np.random.default_rng(0)
    freq_bins = n_fft // 2 + 1
    wsin = rng.standard_normal((freq_bins, 1, n_fft)).astype(np.float32)
    wcos = rng.standard_normal((freq_bins, 1, n_fft)).astype(np.float32)
    return wsin, wcos, None, None

def mel(sr, n_fft, n_mels):
    return np.abs(np.random.default_rng(1).standard_normal((n_mels, n_fft // 2 + 1))).astype(np.float32)

def broadcast_dim(x):
    if x.dim() == 2:
        x = x.unsqueeze(1)
    return x

class MelSpectrogram(torch.nn.Module):
    def __init__(self, sr=22050, n_fft=64, n_mels=16, hop_length=16, center=True, pad_mode='reflect',
                 power=2.0, trainable_mel=False, trainable_STFT=False, device='cuda:0'):
        super(MelSpectrogram, self).__init__()
        self.stride = hop_length
        self.center = center
        self.pad_mode = pad_mode
        self.n_fft = n_fft
        self.device = device
        self.power = power
        wsin, wcos, self.bins2freq, _ = create_fourier_kernels(n_fft, sr=sr)
        self.wsin = torch.tensor(wsin, dtype=torch.float, device=self.device)
        self.wcos = torch.tensor(wcos, dtype=torch.float, device=self.device)
        mel_basis = mel(sr, n_fft, n_mels)
        self.mel_basis = torch.tensor(mel_basis, device=self.device)
        if trainable_mel == True:
            self.mel_basis = torch.nn.Parameter(self.mel_basis)
        if trainable_STFT == True:
            self.wsin = torch.nn.Parameter(self.wsin)
            self.wcos = torch.nn.Parameter(self.wcos)

    def forward(self, x):
        x = broadcast_dim(x)
        if self.center:
            padding = nn.ReflectionPad1d(self.n_fft // 2)
            x = padding(x)
        spec = torch.sqrt(conv1d(x, self.wsin, stride=self.stride).pow(2)
                          + conv1d(x, self.wcos, stride=self.stride).pow(2)) ** self.power
        melspec = torch.matmul(self.mel_basis, spec)
        return melspec

class AudioMobileNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.spec_layer = MelSpectrogram(sr=22050, n_fft=64, n_mels=16, hop_length=16)
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU6(),
                                      nn.Conv2d(8, 8, 3, padding=1, groups=8), nn.ReLU6(),
                                      nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(8, num_classes)

    def forward(self, x):
        x = self.spec_layer(x)
        x = torch.log(x + 1e-8).unsqueeze(1)
        return self.classifier(self.features(x).flatten(1))

model = AudioMobileNet()
model = model.to("cuda:0")
model = DataParallel(model, device_ids=[0, 1])
audio = torch.randn(4, 1024).to("cuda:0")
'''
CELL = '''
output = model(audio)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.module.spec_layer"]
FIX = "namespace"
REFERENCE_FIX = '''
spec_layer = model.module.spec_layer
for name in ("wsin", "wcos", "mel_basis"):
    t = getattr(spec_layer, name)
    delattr(spec_layer, name)
    spec_layer.register_buffer(name, t)
'''
REFERENCE_EDIT = None
CLEAN = False
