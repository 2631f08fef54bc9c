"""Look-alike: Coqui TTS FreeVC after "fix(vc): support both cpu and cuda": the speaker encoder reads its device from its parameters, so `.to("cuda")` of the whole TTS object is enough.

Source: https://github.com/idiap/coqui-ai-TTS (TTS/vc/layers/freevc/speaker_encoder/speaker_encoder.py, TTS/vc/models/freevc.py, after PR #244)
`SpeakerEncoder` no longer stores a device: `device` is a property returning
`next(self.parameters()).device`, `embed_utterance` builds the mels with numpy on the host and sends
them with `torch.from_numpy(mels).to(self.device)`, and returns a tensor that
`FreeVC.voice_conversion` uses directly (`g_tgt = self.enc_spk_ex.embed_utterance(wav_tgt)[None, :, None]`);
the source wav goes `torch.from_numpy(...).to(self.device)`. Host numpy audio next to a CUDA model is
by design. Stand-ins: wavlm/decoder reduced to convs, the mel front end to framing + rfft;
`[None, :, None]` is written with `unsqueeze` (slicing is not simulable on fake cuda).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SpeakerEncoder(nn.Module):
    def __init__(self, weights_fpath, mel_n_channels=9, model_hidden_size=16, model_embedding_size=8):
        super().__init__()
        self.lstm = nn.LSTM(mel_n_channels, model_hidden_size, 3, batch_first=True)
        self.linear = nn.Linear(model_hidden_size, model_embedding_size)
        self.relu = nn.ReLU()

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, mels):
        _, (hidden, _) = self.lstm(mels)
        embeds_raw = self.relu(self.linear(hidden[-1]))
        return embeds_raw / torch.norm(embeds_raw, dim=1, keepdim=True)

    def embed_utterance(self, wav, partial_frames=8, hop=16):
        frames = np.stack([wav[i:i + hop] for i in range(0, len(wav) - hop + 1, hop)])
        mel = np.abs(np.fft.rfft(frames, axis=-1)).astype(np.float32)
        mels = np.stack([mel[s:s + partial_frames] for s in range(0, len(mel) - partial_frames + 1, partial_frames)])
        with torch.no_grad():
            mels = torch.from_numpy(mels).to(self.device)
            partial_embeds = self(mels)
        raw_embed = partial_embeds.mean(dim=0)
        return raw_embed / torch.norm(raw_embed, p=2)

class FreeVC(nn.Module):
    def __init__(self):
        super().__init__()
        self.wavlm = nn.Conv1d(1, 8, 16, stride=16)
        self.dec = nn.Conv1d(8, 1, 1)
        self.enc_spk_ex = SpeakerEncoder("https://github.com/coqui-ai/TTS/releases/download/v0.13.0_models/speaker_encoder.pt")

    @property
    def device(self):
        return next(self.parameters()).device

    @torch.no_grad()
    def voice_conversion(self, src, tgt):
        g_tgt = self.enc_spk_ex.embed_utterance(tgt).unsqueeze(0).unsqueeze(-1)     # [None, :, None]
        wav_src = torch.from_numpy(src).to(self.device)
        c = self.wavlm(wav_src.unsqueeze(0).unsqueeze(0))
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
        self.voice_converter = Synthesizer()

    def voice_conversion(self, source_wav, target_wav):
        return self.voice_converter.voice_conversion(source_wav=source_wav, target_wav=target_wav)

conversion = TTS("voice_conversion_models/multilingual/vctk/freevc24").to("cuda:0")
rng = np.random.default_rng(1)
source_wav = rng.standard_normal(640).astype(np.float32)
target_wav = rng.standard_normal(960).astype(np.float32)
'''
CELL = '''
wav = conversion.voice_conversion(source_wav=source_wav, target_wav=target_wav)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
