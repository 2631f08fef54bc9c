"""Look-alike: CosyVoice's HiFT vocoder keeps `stft_window` as a plain CPU tensor and moves it at every STFT call.

Source: https://github.com/FunAudioLLM/CosyVoice/blob/main/cosyvoice/hifigan/generator.py
`HiFTGenerator.__init__` stores `self.stft_window = torch.from_numpy(get_window("hann", n_fft,
fftbins=True).astype(np.float32))` - not a buffer, so `model.cuda()` leaves it on the CPU - but
`_stft` passes `window=self.stft_window.to(x.device)` and `_istft`
`window=self.stft_window.to(magnitude.device)`. The CPU attribute is deliberate and harmless.
Stand-in: the generator reduced to the source signal, `_stft`, a conv stack and an irfft synthesis
(torch.istft's overlap-add left out); scipy's periodic Hann window via `torch.hann_window`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class HiFTGenerator(nn.Module):
    """HiFTNet Generator: Neural Source Filter + ISTFTNet (stand-in)."""
    def __init__(self, in_channels=80, base_channels=64, sampling_rate=22050,
                 istft_params={"n_fft": 16, "hop_len": 4}):
        super().__init__()
        self.sampling_rate = sampling_rate
        self.istft_params = istft_params
        self.conv_pre = nn.Conv1d(in_channels, base_channels, 7, 1, padding=3)
        self.source_proj = nn.Conv1d(1, base_channels, 1)
        self.conv_post = nn.Conv1d(base_channels, istft_params["n_fft"] + 2, 7, 1, padding=3)
        self.stft_window = torch.hann_window(istft_params["n_fft"], periodic=True)   # plain attribute

    def _stft(self, x):
        spec = torch.stft(
            x,
            self.istft_params["n_fft"], self.istft_params["hop_len"], self.istft_params["n_fft"],
            window=self.stft_window.to(x.device),
            return_complex=True)
        spec = torch.view_as_real(spec)  # [B, F, TT, 2]
        return spec[..., 0], spec[..., 1]

    def _istft(self, magnitude, phase):
        magnitude = torch.clip(magnitude, max=1e2)
        real = magnitude * torch.cos(phase)
        img = magnitude * torch.sin(phase)
        frames = torch.fft.irfft(torch.complex(real, img).transpose(1, 2), n=self.istft_params["n_fft"])
        return (frames * self.stft_window.to(magnitude.device)).flatten(1)

    def decode(self, x, s):
        s_stft_real, s_stft_imag = self._stft(s.squeeze(1))
        x = self.conv_pre(x)
        x = torch.nn.functional.interpolate(x, size=s_stft_real.shape[-1])
        x = self.conv_post(x + self.source_proj(s_stft_real.mean(1, keepdim=True)))
        n = self.istft_params["n_fft"] // 2 + 1
        magnitude = torch.exp(x[:, :n, :])
        phase = torch.sin(x[:, n:, :])
        return self._istft(magnitude, phase)

    @torch.inference_mode()
    def inference(self, speech_feat):
        f0 = speech_feat.mean(1, keepdim=True).abs() * 100.0
        s = torch.sin(torch.cumsum(torch.repeat_interleave(f0, 8, dim=-1), dim=-1) / self.sampling_rate)
        return self.decode(x=speech_feat, s=s), s

hift = HiFTGenerator().to("cuda:0")
tts_mel = torch.randn(1, 80, 50, device="cuda:0")
'''
CELL = '''
tts_speech, _ = hift.inference(speech_feat=tts_mel)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
