"""audio-webui Bark voice cloning: the reference wav stays on the CPU while the EnCodec model is on the GPU.

Source: https://github.com/gitmylo/audio-webui/issues/64
Creating a Bark voice clone failed with a device mismatch inside EnCodec's encoder. The maintainer
found it: "it's got the audio on cpu, but the encodec model is on gpu" - the clone code assumed
EnCodec would be offloaded to the CPU like the Bark models, but EnCodec (small) stayed on cuda while
the loaded, resampled `wav` was never moved. Fix: move `wav` to the EnCodec model's device.
Stand-in: an EnCodec-shaped model (framing + linear encoder + residual quantizer codebooks).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class EncodecModel(nn.Module):
    def __init__(self, frame=64, dim=32, n_q=2, bins=16):
        super().__init__()
        self.frame = frame
        self.encoder = nn.Linear(frame, dim)
        self.codebooks = nn.Parameter(torch.randn(n_q, bins, dim))

    def encode(self, x):
        b, c, t = x.shape
        frames = x.reshape(b, c, t // self.frame, self.frame).mean(1)
        emb = self.encoder(frames)
        codes = []
        residual = emb
        for cb in self.codebooks:
            d = residual @ cb.t()
            idx = d.argmax(-1)
            codes.append(idx)
            residual = residual - d.softmax(-1) @ cb
        return [(torch.stack(codes, 1), None)]

model = EncodecModel().to("cuda:0")      # EnCodec is not offloaded
wav = torch.randn(1, 24000 // 375 * 64)   # torchaudio.load + convert_audio: on the CPU
wav = wav.unsqueeze(0)
'''
CELL = '''
with torch.no_grad():
    encoded_frames = model.encode(wav)
codes = torch.cat([encoded[0] for encoded in encoded_frames], dim=-1).squeeze()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["wav"]
FIX = "namespace"
REFERENCE_FIX = '''
wav = wav.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
