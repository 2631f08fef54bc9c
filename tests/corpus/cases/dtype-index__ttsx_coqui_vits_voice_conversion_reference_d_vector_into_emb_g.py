"""Coqui TTS VITS voice conversion: a float reference d-vector is looked up in the speaker-id embedding `emb_g`.

Source: https://github.com/coqui-ai/TTS/issues/1672
Voice conversion with a VITS model trained with `use_speaker_embedding=True` failed with "Expected
tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got
torch.FloatTensor instead (while checking arguments for embedding)". `inference_voice_conversion`
passes `reference_d_vector` (a speaker-encoder embedding computed from the reference wav) as
`speaker_cond_src`, and `voice_conversion` sends it through `self.emb_g`, the embedding table for
integer speaker ids. The hot fix (PR #1682, based on this issue) normalises a d-vector instead of
embedding it (`g_src = F.normalize(speaker_cond_src).unsqueeze(-1)`), keeping `emb_g` for ids.
Stand-in: a small Vits with the same inference_voice_conversion/voice_conversion path (a conv
posterior encoder, a linear flow and decoder); CPU, dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class Vits(nn.Module):
    def __init__(self, num_speakers=4, spec_channels=17, hidden=8, embedded_speaker_dim=8):
        super().__init__()
        self.num_speakers = num_speakers
        self.use_speaker_embedding = True
        self.use_d_vector_file = False
        self.emb_g = nn.Embedding(num_speakers, embedded_speaker_dim)
        self.posterior_encoder = nn.Conv1d(spec_channels, hidden, 1)
        self.cond = nn.Conv1d(embedded_speaker_dim, hidden, 1)
        self.waveform_decoder = nn.Conv1d(hidden, 1, 1)

    def flow(self, z, g, reverse=False):
        return z - self.cond(g) if not reverse else z + self.cond(g)

    @torch.no_grad()
    def inference_voice_conversion(self, reference_wav, speaker_id=None, d_vector=None,
                                   reference_speaker_id=None, reference_d_vector=None):
        y = torch.stft(reference_wav, 32, 8, window=torch.hann_window(32), return_complex=True).abs()
        speaker_cond_src = reference_speaker_id if reference_speaker_id is not None else reference_d_vector
        speaker_cond_tgt = speaker_id if speaker_id is not None else d_vector
        wav, _ = self.voice_conversion(y, speaker_cond_src, speaker_cond_tgt)
        return wav

    def voice_conversion(self, y, speaker_cond_src, speaker_cond_tgt):
        assert self.num_speakers > 0, "num_speakers have to be larger than 0."
        if self.use_speaker_embedding and not self.use_d_vector_file:
            g_src = self.emb_g(speaker_cond_src).unsqueeze(-1)
            g_tgt = self.emb_g(speaker_cond_tgt).unsqueeze(-1)
        elif not self.use_speaker_embedding and self.use_d_vector_file:
            g_src = F.normalize(speaker_cond_src).unsqueeze(-1)
            g_tgt = F.normalize(speaker_cond_tgt).unsqueeze(-1)
        else:
            raise RuntimeError(" [!] Voice conversion is only supported on multi-speaker models.")
        z = self.posterior_encoder(y)
        z_p = self.flow(z, g_src)
        z_hat = self.flow(z_p, g_tgt, reverse=True)
        return self.waveform_decoder(z_hat), z_hat

model = Vits().eval()
reference_wav = torch.randn(1, 400)
reference_d_vector = torch.randn(1, 8)       # speaker_manager.compute_embedding_from_clip(reference_wav)
speaker_id = torch.tensor([2])               # target speaker's id
'''
CELL = '''
wav = model.inference_voice_conversion(reference_wav, speaker_id=speaker_id,
                                       reference_d_vector=reference_d_vector)
'''
EXPECT_ERROR = ("Expected tensor for argument #1 'indices'", "scalar types: Long, Int")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            g_src = self.emb_g(speaker_cond_src).unsqueeze(-1)\n",
                  "            if speaker_cond_src.is_floating_point():\n"
                  "                g_src = F.normalize(speaker_cond_src).unsqueeze(-1)\n"
                  "            else:\n"
                  "                g_src = self.emb_g(speaker_cond_src).unsqueeze(-1)\n")
CLEAN = False
