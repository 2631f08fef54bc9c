"""WhisperLiveKit's Sortformer backend: the streaming `audio2mel` preprocessor is built beside the diarization model and never moved to the GPU.

Source: https://github.com/QuentinFuxa/WhisperLiveKit/issues/197
"RuntimeError": with Sortformer diarization on a GPU, `diarize()` failed in
`self.audio2mel.get_features(...)` -> NeMo `FilterbankFeatures`: "Expected all tensors to be on the
same device, but got mat2 is on cuda:0, different from other tensors on cpu (when checking argument
in method wrapper_CUDA_bmm)". The backend loads the NeMo Sortformer model onto the GPU and creates
its own `AudioToMelSpectrogramPreprocessor` for the streaming chunks; the chunk tensor is made on the
model's device, but the preprocessor (its mel filterbank buffer `fb`) stayed on the CPU. Stand-in:
NeMo's preprocessor reduced to framing + power spectrum + `torch.matmul(self.fb, x)`, the Sortformer
model to one linear layer.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class FilterbankFeatures(nn.Module):
    def __init__(self, n_window_size=400, n_window_stride=160, nfilt=80):
        super().__init__()
        self.win, self.hop = n_window_size, n_window_stride
        self.register_buffer("fb", torch.rand(1, nfilt, n_window_size // 2 + 1))

    def forward(self, x, seq_len):
        frames = x.unfold(-1, self.win, self.hop)                  # (B, T, win)
        x = torch.fft.rfft(frames).abs().pow(2.0).transpose(1, 2)  # (B, freq, T)
        x = torch.matmul(self.fb.to(x.dtype), x)                   # (B, nfilt, T)
        return torch.log(x + 2 ** -24), seq_len // self.hop

class AudioToMelSpectrogramPreprocessor(nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.featurizer = FilterbankFeatures(**kwargs)

    def get_features(self, input_signal, length):
        return self.featurizer(input_signal, length)

class SortformerEncLabelModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(80, 4)

class SortformerDiarization:
    def __init__(self, device="cuda:0"):
        self.device = torch.device(device)
        self.diar_model = SortformerEncLabelModel().eval().to(self.device)
        self.audio2mel = AudioToMelSpectrogramPreprocessor(n_window_size=400, n_window_stride=160, nfilt=80)

    def diarize(self, pcm_array):
        audio = torch.tensor(pcm_array, dtype=torch.float32).unsqueeze(0).to(self.device)
        length = torch.tensor([audio.shape[1]], device=self.device)
        processed_signal_chunk, processed_signal_length_chunk = self.audio2mel.get_features(audio, length)
        preds = torch.sigmoid(self.diar_model.encoder(processed_signal_chunk.transpose(1, 2)))
        return preds

diarization_obj = SortformerDiarization("cuda:0")
pcm_array = np.random.default_rng(0).standard_normal(16000).astype(np.float32)
'''
CELL = '''
with torch.no_grad():
    preds = diarization_obj.diarize(pcm_array)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["diarization_obj.audio2mel"]
FIX = "namespace"
REFERENCE_FIX = '''
diarization_obj.audio2mel = diarization_obj.audio2mel.to(diarization_obj.device)
'''
REFERENCE_EDIT = None
CLEAN = False
