"""Coqui TTS FreeVC on CUDA: the d-vector speaker encoder was told its device while the model was still on the CPU, and keeps sending mels there.

Source: https://github.com/idiap/coqui-ai-TTS/issues/101
`conversion = TTS("voice_conversion_models/multilingual/vctk/freevc24").to("cuda")` then
`conversion.voice_conversion_to_file(path, speaker_wav, file_path=...)` failed in the speaker
encoder's LSTM: "Input and parameter tensors are not at the same device, found input tensor at cpu and
parameter tensor at cuda:0". `FreeVC.load_pretrained_speaker_encoder` builds the Resemblyzer-style
`SpeakerEncoder(..., device=self.device)` while the model is loaded on the CPU; the encoder stores that
in a plain `self.device` and `embed_utterance` does `torch.from_numpy(mels).to(self.device)`, so
`.to("cuda")` moves the LSTM but not the attribute. The maintainers' PR #244 ("fix(vc): support both
cpu and cuda", "Fixes #101") drops the stored device and uses the parameters' device.
Stand-ins: TTS api -> Synthesizer -> FreeVC (wavlm/decoder reduced to convs) -> SpeakerEncoder whose
numpy mel front end is reduced to framing + rfft.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SpeakerEncoder(nn.Module):
    """Stand-in for TTS.vc.layers.freevc.speaker_encoder.SpeakerEncoder (Resemblyzer's VoiceEncoder)."""
    def __init__(self, weights_fpath, device=None, mel_n_channels=9, model_hidden_size=16, model_embedding_size=8):
        super().__init__()
        self.lstm = nn.LSTM(mel_n_channels, model_hidden_size, 3, batch_first=True)
        self.linear = nn.Linear(model_hidden_size, model_embedding_size)
        self.relu = nn.ReLU()
        if device is None:
            device = torch.device("cpu")
        elif isinstance(device, str):
            device = torch.device(device)
        self.device = device
        self.to(device)

    def forward(self, mels):
        _, (hidden, _) = self.lstm(mels)
        embeds_raw = self.relu(self.linear(hidden[-1]))
        return embeds_raw / torch.norm(embeds_raw, dim=1, keepdim=True)

    def embed_utterance(self, wav, partial_frames=8, hop=16):
        frames = np.stack([wav[i:i + hop] for i in range(0, len(wav) - hop + 1, hop)])
        mel = np.abs(np.fft.rfft(frames, axis=-1)).astype(np.float32)      # audio.wav_to_mel_spectrogram
        mels = np.stack([mel[s:s + partial_frames] for s in range(0, len(mel) - partial_frames + 1, partial_frames)])
        with torch.no_grad():
            mels = torch.from_numpy(mels).to(self.device)
            partial_embeds = self(mels)
        raw_embed = partial_embeds.mean(0)
        return raw_embed / torch.norm(raw_embed, 2)

class FreeVC(nn.Module):
    def __init__(self):
        super().__init__()
        self.wavlm = nn.Conv1d(1, 8, 16, stride=16)
        self.dec = nn.Conv1d(8, 1, 1)

    @property
    def device(self):
        return next(self.parameters()).device

    def load_pretrained_speaker_encoder(self):
        self.enc_spk_ex = SpeakerEncoder(
            "https://github.com/coqui-ai/TTS/releases/download/v0.13.0_models/speaker_encoder.pt",
            device=self.device,
        )

    @torch.no_grad()
    def voice_conversion(self, src, tgt):
        wav_tgt = tgt
        g_tgt = self.enc_spk_ex.embed_utterance(wav_tgt)
        g_tgt = g_tgt[None, :, None].to(self.device)
        wav_src = torch.from_numpy(src).to(self.device)
        c = self.wavlm(wav_src[None, None, :])
        return self.dec(c + g_tgt)

class Synthesizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.vc_model = FreeVC()
        self.vc_model.load_pretrained_speaker_encoder()

    def voice_conversion(self, source_wav, target_wav):
        return self.vc_model.voice_conversion(source_wav, target_wav)

class TTS(nn.Module):
    def __init__(self, model_name):
        super().__init__()
        self.model_name = model_name
        self.voice_converter = Synthesizer()

    def voice_conversion(self, source_wav, target_wav):
        return self.voice_converter.voice_conversion(source_wav=source_wav, target_wav=target_wav)

conversion = TTS("voice_conversion_models/multilingual/vctk/freevc24").to("cuda:0")
rng = np.random.default_rng(0)
path = rng.standard_normal(640).astype(np.float32)          # the cloned XTTS output, /tmp/output_*.wav
speaker_wav = rng.standard_normal(960).astype(np.float32)   # the original speaker sample
'''
CELL = '''
wav = conversion.voice_conversion(source_wav=path, target_wav=speaker_wav)
'''
EXPECT_ERROR = ("Input and parameter tensors are not at the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["conversion.voice_converter.vc_model.enc_spk_ex"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            mels = torch.from_numpy(mels).to(self.device)\n",
                  "            mels = torch.from_numpy(mels).to(self.linear.weight.device)\n")
CLEAN = False
