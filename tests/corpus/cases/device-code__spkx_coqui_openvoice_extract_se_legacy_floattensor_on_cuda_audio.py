"""Coqui TTS OpenVoice on CUDA: `extract_se` re-wraps the already-on-GPU reference audio in the CPU-typed legacy constructor `torch.FloatTensor(...)`.

Source: https://github.com/idiap/coqui-ai-TTS/issues/234
After upgrading to coqui-tts 0.25.1 to use the OpenVoice voice converter, "an exception occurs if I use
"cuda". It works only on "cpu"": `openvoice.py, line 288, in extract_se: y = torch.FloatTensor(audio_ref)`
-> "TypeError: expected TensorOptions(dtype=float, device=cpu, ...) (got TensorOptions(dtype=float,
device=cuda:0, ...))". `load_audio` already returns `out.to(self.device).float()`, and
`torch.FloatTensor` only accepts CPU tensors. The maintainers' PR #244 ("fix(vc): support both cpu and
cuda", "also mentioned in #234") drops the wrapper: `y = self.load_audio(audio)`.
Stand-ins: TTS api -> Synthesizer -> OpenVoice with its tone-colour `ref_enc` (speaker embedding)
reduced to a conv + linear, `wav_to_spec` to a fixed framing conv, the flow/decoder to a conv;
`@torch.inference_mode()` is written `torch.no_grad()` and the final `.numpy()` is left out (neither is
simulable on fake cuda).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

def wav_to_spec(y, n_fft, hop_length, win_length, center=False):
    frames = torch.ones(n_fft // 2 + 1, 1, n_fft, device=y.device) / n_fft
    return torch.nn.functional.conv1d(y.unsqueeze(1), frames, stride=hop_length).abs()

class ReferenceEncoder(nn.Module):
    def __init__(self, spec_channels, gin_channels):
        super().__init__()
        self.conv = nn.Conv1d(spec_channels, 16, 3, padding=1)
        self.proj = nn.Linear(16, gin_channels)

    def forward(self, inputs):                       # (batch, frames, spec_channels)
        out = torch.relu(self.conv(inputs.transpose(1, 2))).mean(-1)
        return self.proj(out)

class OpenVoice(nn.Module):
    def __init__(self, fft_size=64, hop_length=16, gin_channels=8):
        super().__init__()
        self.fft_size, self.hop_length = fft_size, hop_length
        self.spec_channels = fft_size // 2 + 1
        self.ref_enc = ReferenceEncoder(self.spec_channels, gin_channels)
        self.dec = nn.Conv1d(self.spec_channels, 1, 1)
        self.cond = nn.Linear(gin_channels, self.spec_channels)

    @property
    def device(self):
        return next(self.parameters()).device

    def load_audio(self, wav):
        if isinstance(wav, np.ndarray):
            out = torch.from_numpy(wav)
        else:
            out = wav
        return out.to(self.device).float()

    def extract_se(self, audio):
        audio_ref = self.load_audio(audio)
        y = torch.FloatTensor(audio_ref)
        y = y.to(self.device)
        y = y.unsqueeze(0)
        spec = wav_to_spec(y, n_fft=self.fft_size, hop_length=self.hop_length,
                           win_length=self.fft_size, center=False).to(self.device)
        with torch.no_grad():
            g = self.ref_enc(spec.transpose(1, 2)).unsqueeze(-1)
        return g, spec

    def inference(self, x, aux_input):
        g_src, g_tgt = aux_input["g_src"], aux_input["g_tgt"]
        shift = self.cond((g_tgt - g_src).squeeze(-1)).unsqueeze(-1)
        return {"model_outputs": self.dec(x + shift)}

    @torch.no_grad()         # @torch.inference_mode() in coqui-tts
    def voice_conversion(self, src, tgt):
        src_se, src_spec = self.extract_se(src)
        tgt_se, _ = self.extract_se(tgt)
        aux_input = {"g_src": src_se, "g_tgt": tgt_se}
        audio = self.inference(src_spec, aux_input)
        return audio["model_outputs"]       # [0, 0].data.cpu().float().numpy()

class Synthesizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.vc_model = OpenVoice()

    def voice_conversion(self, source_wav, target_wav):
        return self.vc_model.voice_conversion(source_wav, target_wav)

class TTS(nn.Module):
    def __init__(self, model_name):
        super().__init__()
        self.voice_converter = Synthesizer()

    def voice_conversion(self, source_wav, target_wav):
        return self.voice_converter.voice_conversion(source_wav=source_wav, target_wav=target_wav)

tts = TTS("voice_conversion_models/multilingual/multi-dataset/openvoice_v2").to("cuda:0")
rng = np.random.default_rng(2)
source_wav = rng.standard_normal(1600).astype(np.float32)     # librosa.load(source.wav)
target_wav = rng.standard_normal(2400).astype(np.float32)     # librosa.load(target.wav)
'''
CELL = '''
wav = tts.voice_conversion(source_wav=source_wav, target_wav=target_wav)
'''
EXPECT_ERROR = "expected TensorOptions(dtype=float, device=cpu"
CULPRITS = ["tts.voice_converter.vc_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        audio_ref = self.load_audio(audio)\n        y = torch.FloatTensor(audio_ref)\n",
                  "        y = self.load_audio(audio)\n")
CLEAN = False
