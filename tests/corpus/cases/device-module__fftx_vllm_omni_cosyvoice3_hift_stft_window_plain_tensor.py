"""vLLM-Omni's CosyVoice3 HiFT vocoder: `stft_window` is a plain CPU tensor that `model.cuda()` leaves behind.

Source: https://github.com/vllm-project/vllm-omni/issues/6455
"[Bug]: CosyVoice3 streaming TTS fails with STFT input/window device mismatch": streaming synthesis
died in `cosyvoice3_code2wav.forward_streaming` -> `self.hift.inference(speech_feat=tts_mel, ...)`
with the stft device-mismatch error. The fix, vllm-omni PR #6454 "[BugFix]: CosyVoice3 STFT window
device mismatch": "`stft_window` was stored as a regular CPU tensor. Therefore, calling
`model.cuda()` did not move it to the GPU, while the STFT input was on CUDA." - it is registered as a
buffer. Stand-in: the code2wav wrapper holding a `HiFTGenerator` reduced to a source signal, the
`_stft` of it and an irfft synthesis; the window built with `scipy.signal.get_window` is made with
`torch.hann_window(periodic=True)` (the same values).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class HiFTGenerator(nn.Module):
    """Stand-in for code2wav_core/hifigan.py HiFTGenerator (the STFT parts)."""
    def __init__(self, in_channels=80, base_channels=64, sampling_rate=24000,
                 istft_params={"n_fft": 16, "hop_len": 4}, upsample_rate=480):
        super().__init__()
        self.sampling_rate = sampling_rate
        self.istft_params = istft_params
        self.upsample_rate = upsample_rate
        self.conv_pre = nn.Conv1d(in_channels, base_channels, 7, 1, padding=3)
        self.source_proj = nn.Conv1d(1, base_channels, 1)
        self.conv_post = nn.Conv1d(base_channels, istft_params["n_fft"] + 2, 7, 1, padding=3)
        self.stft_window = torch.hann_window(istft_params["n_fft"], periodic=True)

    def _stft(self, x):
        spec = torch.stft(x, self.istft_params["n_fft"], self.istft_params["hop_len"],
                          self.istft_params["n_fft"], window=self.stft_window, return_complex=True)
        spec = torch.view_as_real(spec)  # [B, F, TT, 2]
        return spec[..., 0], spec[..., 1]

    def _istft(self, magnitude, phase):
        magnitude = torch.clip(magnitude, max=1e2)
        spec = torch.polar(magnitude, phase)
        frames = torch.fft.irfft(spec.transpose(1, 2), n=self.istft_params["n_fft"], dim=-1)
        return (frames * self.stft_window.view(1, 1, -1)).flatten(1)

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
    def inference(self, speech_feat, finalize=True):
        f0 = speech_feat.mean(1, keepdim=True).abs() * 100.0                 # f0_predictor
        s = torch.sin(torch.cumsum(torch.repeat_interleave(f0, 8, dim=-1), dim=-1)
                      / self.sampling_rate)                                  # m_source
        generated_speech = self.decode(x=speech_feat, s=s)
        return generated_speech, s

class CosyVoice3Code2Wav(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_embedding = nn.Embedding(6561, 80)
        self.hift = HiFTGenerator()

model = CosyVoice3Code2Wav()
model = model.to("cuda:0")                      # model.cuda() in vllm-omni
tts_mel = torch.randn(1, 80, 50, device="cuda:0")
'''
CELL = '''
tts_speech, _ = model.hift.inference(speech_feat=tts_mel, finalize=True)
'''
EXPECT_ERROR = ("must be on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["model.hift"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'self.stft_window = torch.hann_window(istft_params["n_fft"], periodic=True)',
    'self.register_buffer("stft_window", torch.hann_window(istft_params["n_fft"], periodic=True), persistent=False)',
)
CLEAN = False
