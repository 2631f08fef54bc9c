"""Coqui XTTS conditioning latents: the cuda reference audio is turned into a mel on the CPU (`mel_norms=self.mel_stats.cpu()`) and the mel is moved back.

Source: https://github.com/coqui-ai/TTS (TTS/tts/models/xtts.py: wav_to_mel_cloning, Xtts.get_gpt_cond_latents, get_conditioning_latents)
`get_conditioning_latents` moves the loaded reference audio to `self.device`; `get_gpt_cond_latents`
then calls `wav_to_mel_cloning(audio, mel_norms=self.mel_stats.cpu(), ...)`, whose default
`device=torch.device("cpu")` builds the MelSpectrogram on the CPU and does `wav = wav.to(device)`,
divides by the CPU copy of the `mel_stats` buffer, and the result goes to the GPT as
`self.gpt.get_style_emb(mel.to(self.device))`. Look-alike: a cuda buffer copied to the CPU and a
cuda waveform sent to the CPU on purpose, inside a cuda model; the cell runs.
Stand-ins: a MelSpectrogram with buffers (torchaudio is not installed), a small GPT style encoder,
and an Xtts with the `mel_stats` buffer and the non-perceiver branch of get_gpt_cond_latents.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MelSpectrogram(nn.Module):
    def __init__(self, n_fft=64, hop_length=32, win_length=64, n_mels=8):
        super().__init__()
        self.n_fft, self.hop_length = n_fft, hop_length
        self.register_buffer("window", torch.hann_window(win_length))
        self.register_buffer("fb", torch.rand(n_fft // 2 + 1, n_mels))

    def forward(self, wav):
        frames = wav.unfold(-1, self.n_fft, self.hop_length) * self.window
        return torch.matmul(torch.fft.rfft(frames).abs() ** 2, self.fb).transpose(-1, -2)

def wav_to_mel_cloning(wav, mel_norms_file="../experiments/clips_mel_norms.pth", mel_norms=None,
                       device=torch.device("cpu"), n_fft=64, hop_length=32, win_length=64, n_mels=8):
    mel_stft = MelSpectrogram(n_fft=n_fft, hop_length=hop_length, win_length=win_length, n_mels=n_mels).to(device)
    wav = wav.to(device)
    mel = mel_stft(wav)
    mel = torch.log(torch.clamp(mel, min=1e-5))
    mel = mel / mel_norms.unsqueeze(0).unsqueeze(-1)
    return mel

class GPT(nn.Module):
    def __init__(self, n_mels=8, dim=16):
        super().__init__()
        self.conditioning_encoder = nn.Conv1d(n_mels, dim, 1)

    def get_style_emb(self, cond_input, return_latent=False):
        return self.conditioning_encoder(cond_input).mean(-1, keepdim=True)

class Xtts(nn.Module):
    def __init__(self):
        super().__init__()
        self.gpt = GPT()
        self.register_buffer("mel_stats", torch.ones(8))

    @property
    def device(self):
        return next(self.parameters()).device

    @torch.inference_mode()
    def get_gpt_cond_latents(self, audio, sr, length=30):
        if length > 0:
            audio = audio[:, : 22050 * length]
        mel = wav_to_mel_cloning(audio, mel_norms=self.mel_stats.cpu(), n_fft=64, hop_length=32,
                                 win_length=64, n_mels=8)
        cond_latent = self.gpt.get_style_emb(mel.to(self.device))
        return cond_latent.transpose(1, 2)

model = Xtts().eval().to("cuda:0")
audio = torch.randn(1, 1024).to(model.device)   # load_audio(path, 22050)[:, :max_ref].to(self.device)
'''
CELL = '''
gpt_cond_latent = model.get_gpt_cond_latents(audio, 22050, length=6)
print(gpt_cond_latent.shape, gpt_cond_latent.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
