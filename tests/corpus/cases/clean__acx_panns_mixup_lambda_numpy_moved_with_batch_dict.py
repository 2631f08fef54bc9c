"""Look-alike: PANNs training step: a numpy batch dict and the mixup lambdas are moved to the GPU one by one before Cnn14.

Source: https://github.com/qiuqiangkong/audioset_tagging_cnn (pytorch/main.py, pytorch/models.py)
PANNs' `train()` gets `batch_data_dict` of numpy arrays from the DataLoader, draws
`batch_data_dict['mixup_lambda'] = mixup_augmenter.get_lambda(...)` in numpy, and calls
`move_data_to_device(x, device)` on the waveform and the lambdas before `model(waveform, mixup_lambda)`;
the targets are moved the same way for `clip_bce`. The Cnn14 front end (torchlibrosa Spectrogram /
LogmelFilterBank as buffers) follows `model.to(device)`. Stand-in: Cnn14 reduced to the log-mel
front end, `do_mixup`, one conv block and the fc heads.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

def move_data_to_device(x, device):
    if "float" in str(x.dtype):
        x = torch.Tensor(x)
    elif "int" in str(x.dtype):
        x = torch.LongTensor(x)
    else:
        return x
    return x.to(device)

def do_mixup(x, mixup_lambda):
    out = (x[0::2].transpose(0, -1) * mixup_lambda[0::2] +
           x[1::2].transpose(0, -1) * mixup_lambda[1::2]).transpose(0, -1)
    return out

class Mixup(object):
    def __init__(self, mixup_alpha, random_seed=1234):
        self.mixup_alpha = mixup_alpha
        self.random_state = np.random.RandomState(random_seed)

    def get_lambda(self, batch_size):
        mixup_lambdas = []
        for n in range(0, batch_size, 2):
            lam = self.random_state.beta(self.mixup_alpha, self.mixup_alpha, 1)[0]
            mixup_lambdas.append(lam)
            mixup_lambdas.append(1. - lam)
        return np.array(mixup_lambdas)

class Cnn14(nn.Module):
    def __init__(self, window_size=512, hop_size=160, mel_bins=64, classes_num=527):
        super().__init__()
        self.win, self.hop = window_size, hop_size
        self.register_buffer("melW", torch.rand(window_size // 2 + 1, mel_bins))   # LogmelFilterBank
        self.bn0 = nn.BatchNorm2d(mel_bins)
        self.fc1 = nn.Linear(mel_bins, 32, bias=True)
        self.fc_audioset = nn.Linear(32, classes_num, bias=True)

    def forward(self, input, mixup_lambda=None):
        frames = input.unfold(-1, self.win, self.hop)
        x = torch.matmul(torch.fft.rfft(frames).abs().pow(2), self.melW)
        x = torch.log10(torch.clamp(x, min=1e-10)).unsqueeze(1)      # (batch, 1, time, mel)
        if self.training and mixup_lambda is not None:
            x = do_mixup(x, mixup_lambda)
        x = torch.mean(x, dim=(1, 2))
        x = F.relu_(self.fc1(x))
        clipwise_output = torch.sigmoid(self.fc_audioset(x))
        return {"clipwise_output": clipwise_output, "embedding": x}

def clip_bce(output_dict, target_dict):
    return F.binary_cross_entropy(output_dict["clipwise_output"], target_dict["target"])

device = torch.device("cuda:0")
model = Cnn14(classes_num=527)
model.to(device)
mixup_augmenter = Mixup(mixup_alpha=1.)
rng = np.random.default_rng(0)
batch_data_dict = {"waveform": rng.standard_normal((8, 16000)).astype(np.float32),
                   "target": (rng.random((8, 527)) > 0.99).astype(np.float32)}
'''
CELL = '''
batch_data_dict["mixup_lambda"] = mixup_augmenter.get_lambda(batch_size=len(batch_data_dict["waveform"]))
for key in batch_data_dict.keys():
    batch_data_dict[key] = move_data_to_device(batch_data_dict[key], device)
model.train()
with torch.no_grad():
    batch_output_dict = model(batch_data_dict["waveform"], batch_data_dict["mixup_lambda"])
    batch_target_dict = {"target": do_mixup(batch_data_dict["target"], batch_data_dict["mixup_lambda"])}
    loss = clip_bce(batch_output_dict, batch_target_dict)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
