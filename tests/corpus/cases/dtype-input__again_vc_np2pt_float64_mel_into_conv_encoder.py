"""AGAIN-VC inference notebook: `np2pt` turns the float64 NumPy mel into a DoubleTensor for the float32 encoder.

Source: https://github.com/KimythAnly/AGAIN-VC/issues/2
Running the inference notebook, `inferencer.inference(source_path=..., target_path=...)` failed in the
encoder's Conv1d with "Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor)
should be the same": the mel-spectrograms computed with NumPy/librosa are float64 in the reporter's
environment and `util/mytorch.np2pt` converted them with `torch.from_numpy` as they were. The author
revised `np2pt` to return a FloatTensor explicitly. Stand-in: np2pt, the Inferencer and a two-layer
encoder/decoder; CPU only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = "cpu"

def np2pt(array):
    return torch.from_numpy(array[None]).to(device)

class AgainModel(nn.Module):
    def __init__(self, c_in=80, c_h=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(c_in, c_h, 5, padding=2), nn.ReLU(), nn.InstanceNorm1d(c_h))
        self.decoder = nn.Conv1d(c_h * 2, c_in, 5, padding=2)

    def inference(self, source, target):
        enc = self.encoder(source)
        cond = self.encoder(target).mean(dim=-1, keepdim=True).expand_as(enc)
        return self.decoder(torch.cat([enc, cond], dim=1))

class Inferencer:
    def __init__(self, model):
        self.model = model.eval()

    def load_mel(self, path, seglen=None):
        # librosa.load + log-mel in NumPy: float64 arrays in the reporter's environment
        rng = np.random.default_rng(len(path))
        mel = np.log(np.abs(rng.standard_normal((80, 128))) + 1e-5)
        return mel if seglen is None else mel[:, :seglen]

    def inference(self, source_path, target_path, out_path=None, seglen=None):
        src_mel = self.load_mel(source_path, seglen)
        tar_mel = self.load_mel(target_path, seglen)
        src_mel, tar_mel = np2pt(src_mel), np2pt(tar_mel)
        with torch.no_grad():
            dec = self.model.inference(src_mel, tar_mel)
        return dec

inferencer = Inferencer(AgainModel().to(device))
source_path = "data/wav48/p225/p225_001.wav"
target_path = "data/wav48/p226/p226_001.wav"
'''
CELL = '''
dec = inferencer.inference(source_path=source_path, target_path=target_path, out_path="output", seglen=None)
'''
EXPECT_ERROR = ("should be the same", "Input type")
CULPRITS = ["inferencer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "return torch.from_numpy(array[None]).to(device)",
    "return torch.from_numpy(array[None]).float().to(device)",
)
CLEAN = False
