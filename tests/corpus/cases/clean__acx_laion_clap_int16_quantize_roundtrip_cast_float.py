"""Look-alike: LAION-CLAP audio embedding: librosa audio quantised through int16 and back, then `.float()` before the model.

Source: https://github.com/LAION-AI/CLAP/issues/166
The reporter's (and the README's) snippet: `audio_data, _ = librosa.load('test0.wav', sr=48000)`,
`audio_data.reshape(1, -1)`, then `torch.from_numpy(int16_to_float32(float32_to_int16(audio_data))).float()`
("quantize before send it in to the model") and `clap.get_audio_embedding_from_data(x=audio_data,
use_tensor=True)`. The int16 round trip goes through numpy int16/float64 and is cast back to float32,
so the float32 HTSAT encoder receives float32. Stand-in: the audio branch reduced to a mel
projection + linear head; run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

def int16_to_float32(x):
    return (x / 32767.0).astype(np.float32)

def float32_to_int16(x):
    x = np.clip(x, a_min=-1., a_max=1.)
    return (x * 32767.).astype(np.int16)

class CLAP_Module(nn.Module):
    def __init__(self, win=1024, hop=480, n_mels=64, joint_dim=32):
        super().__init__()
        self.win, self.hop = win, hop
        self.register_buffer("mel_fb", torch.rand(win // 2 + 1, n_mels))
        self.audio_projection = nn.Sequential(nn.Linear(n_mels, joint_dim), nn.ReLU(), nn.Linear(joint_dim, joint_dim))

    def get_audio_embedding_from_data(self, x, use_tensor=False):
        frames = x.unfold(-1, self.win, self.hop)
        mel = torch.log(torch.matmul(torch.fft.rfft(frames).abs().pow(2), self.mel_fb) + 1e-6)
        emb = F.normalize(self.audio_projection(mel.mean(dim=1)), dim=-1)
        return emb if use_tensor else emb.detach().cpu().numpy()

clap = CLAP_Module().eval()
audio_data = (0.1 * np.random.default_rng(0).standard_normal(48000)).astype(np.float32)   # librosa.load(..., sr=48000)
audio_data = audio_data.reshape(1, -1)
'''
CELL = '''
audio_data = torch.from_numpy(int16_to_float32(float32_to_int16(audio_data))).float()
with torch.no_grad():
    audio_embed1 = clap.get_audio_embedding_from_data(x=audio_data, use_tensor=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
