"""Coqui TTS FreeVC moved to cuda:2: the pretrained speaker encoder still sends its mels to the `self.device` it stored at load time.

Source: https://github.com/coqui-ai/TTS/issues/3985
`TTS(model_name="voice_conversion_models/multilingual/vctk/freevc24").to("cuda:2")` then
`tts.voice_conversion_to_file(source_wav=..., target_wav=...)` failed in the speaker encoder's LSTM
with "Input and parameter tensors are not at the same device, found input tensor at cuda:0 and
parameter tensor at cuda:2". FreeVC's `SpeakerEncoder.__init__` resolves `device=None` to "cuda"
(cuda:0 on that machine), keeps it in a plain `self.device` attribute and `embed_utterance` does
`torch.from_numpy(mels).to(self.device)`; `.to("cuda:2")` moves the LSTM weights but not that
attribute. The maintainers' fork fixed it ("fix(vc): support both cpu and cuda", idiap/coqui-ai-TTS
PR #244) by dropping the stored device and using the parameters' device.
Stand-ins: the TTS api object holding a `voice_converter` with a reduced FreeVC (`enc_spk_ex`, a
conv "wavlm" feature extractor and decoder); the speaker encoder's numpy mel front end is reduced
to framing + rfft, and it returns tensors (as the fixed version does) instead of numpy arrays.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SpeakerEncoder(nn.Module):
    def __init__(self, device=None, mel_n_channels=9, model_hidden_size=16, model_embedding_size=8):
        super().__init__()
        self.lstm = nn.LSTM(mel_n_channels, model_hidden_size, 2, batch_first=True)
        self.linear = nn.Linear(model_hidden_size, model_embedding_size)
        self.relu = nn.ReLU()
        if device is None:
            device = torch.device("cuda:0")   # "cuda" if torch.cuda.is_available() else "cpu"
        elif isinstance(device, str):
            device = torch.device(device)
        self.device = device
        self.to(device)

    def forward(self, mels):
        _, (hidden, _) = self.lstm(mels)
        embeds_raw = self.relu(self.linear(hidden[-1]))
        return embeds_raw / torch.norm(embeds_raw, dim=1, keepdim=True)

    def embed_utterance(self, wav, partial_frames=10, hop=16):
        frames = np.stack([wav[i:i + hop] for i in range(0, len(wav) - hop + 1, hop)])
        mel = np.abs(np.fft.rfft(frames, axis=-1)).astype(np.float32)        # audio.wav_to_mel_spectrogram
        mels = np.stack([mel[s:s + partial_frames] for s in range(0, len(mel) - partial_frames + 1, partial_frames)])
        with torch.no_grad():
            mels = torch.from_numpy(mels).to(self.device)
            partial_embeds = self(mels)
        raw_embed = partial_embeds.mean(0)
        return raw_embed / torch.norm(raw_embed, 2)

class FreeVC(nn.Module):
    def __init__(self):
        super().__init__()
        self.wavlm = nn.Conv1d(1, 8, 16, stride=16)          # extract_wavlm_features
        self.dec = nn.Conv1d(8, 1, 1)
        self.enc_spk_ex = SpeakerEncoder()                   # load_pretrained_speaker_encoder()

    @property
    def device(self):
        return next(self.parameters()).device

    @torch.no_grad()
    def voice_conversion(self, src, tgt):
        g_tgt = self.enc_spk_ex.embed_utterance(tgt)
        g_tgt = g_tgt[None, :, None].to(self.device)
        wav_src = torch.from_numpy(src).to(self.device)
        c = self.wavlm(wav_src[None, None, :])
        return self.dec(c + g_tgt)

class Synthesizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.vc_model = FreeVC()

    def voice_conversion(self, source_wav, target_wav):
        return self.vc_model.voice_conversion(source_wav, target_wav)

class TTS(nn.Module):
    def __init__(self, model_name):
        super().__init__()
        self.model_name = model_name
        self.voice_converter = Synthesizer()

    def voice_conversion(self, source_wav, target_wav):
        return self.voice_converter.voice_conversion(source_wav=source_wav, target_wav=target_wav)

tts = TTS(model_name="voice_conversion_models/multilingual/vctk/freevc24").to("cuda:2")
source_wav = np.random.randn(640).astype(np.float32)     # _t1_source.wav
target_wav = np.random.randn(800).astype(np.float32)     # _t1_target.wav
'''
CELL = '''
wav = tts.voice_conversion(source_wav=source_wav, target_wav=target_wav)
'''
EXPECT_ERROR = ("Input and parameter tensors are not at the same device", "Expected all tensors to be on the same device")
CULPRITS = ["tts.voice_converter.vc_model.enc_spk_ex"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            mels = torch.from_numpy(mels).to(self.device)\n",
                  "            mels = torch.from_numpy(mels).to(next(self.parameters()).device)\n")
CLEAN = False
