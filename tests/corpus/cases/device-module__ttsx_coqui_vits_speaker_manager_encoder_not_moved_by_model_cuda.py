"""Coqui TTS VITS/YourTTS training with the speaker-encoder loss: `model.cuda()` never reaches `speaker_manager.encoder`.

Source: https://github.com/coqui-ai/TTS/pull/1630
Training a VITS model with `use_speaker_encoder_as_loss=True` failed with "Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same" (also reported in
Edresson/YourTTS#28). The speaker encoder used for the loss lives in `model.speaker_manager.encoder`,
and `SpeakerManager` is a plain Python object, not an `nn.Module`, so the trainer's `model.cuda()`
moves the VITS layers but leaves the encoder on the CPU. The PR's workaround is
`self.encoder = self.encoder.cuda()`; the maintainers later move the encoder to the model's device
at the start of each epoch (`self.speaker_manager.encoder = self.speaker_manager.encoder.to(self.device)`).
Stand-ins: a SpeakerManager holding a small ResNet-style speaker encoder (mel filterbank buffer,
instance norm, conv, fc) and a reduced Vits whose forward computes the speaker-consistency
embeddings of the real and generated segments. Under the fake-cuda simulation the first op to
check devices is the encoder's mel projection, so the message is the generic device one.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class ResNetSpeakerEncoder(nn.Module):
    def __init__(self, n_fft=32, n_mels=8, proj_dim=16):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("fb", torch.rand(n_fft // 2 + 1, n_mels))
        self.instancenorm = nn.InstanceNorm1d(n_mels)
        self.conv1 = nn.Conv1d(n_mels, 8, 3, padding=1)
        self.fc = nn.Linear(8, proj_dim)

    def forward(self, x, l2_norm=False):
        frames = x.unfold(-1, self.n_fft, self.n_fft // 2) * self.window   # STFT frames
        spec = torch.fft.rfft(frames).abs()
        mel = torch.matmul(spec, self.fb).transpose(1, 2)
        x = self.instancenorm((mel + 1e-6).log())
        x = self.conv1(x).mean(-1)
        x = self.fc(x)
        return F.normalize(x, p=2, dim=1) if l2_norm else x

class SpeakerManager:
    """TTS.tts.utils.speakers.SpeakerManager: a plain object, not an nn.Module."""
    def __init__(self, encoder):
        self.encoder = encoder
        self.ids = {"spk_a": 0, "spk_b": 1}

class Vits(nn.Module):
    def __init__(self, speaker_manager, num_chars=20, hidden=16, hop=8):
        super().__init__()
        self.speaker_manager = speaker_manager
        self.use_speaker_encoder_as_loss = True
        self.emb = nn.Embedding(num_chars, hidden)
        self.waveform_decoder = nn.Linear(hidden, hop)

    def forward(self, x, wav_seg):
        h = self.emb(x)
        o = self.waveform_decoder(h).flatten(1)                 # generated waveform segment
        if self.use_speaker_encoder_as_loss and self.speaker_manager.encoder is not None:
            wavs_batch = torch.cat((wav_seg, o), dim=0)
            pred_embs = self.speaker_manager.encoder.forward(wavs_batch, l2_norm=True)
            gt_spk_emb, syn_spk_emb = torch.chunk(pred_embs, 2, dim=0)
        return {"model_outputs": o, "gt_spk_emb": gt_spk_emb, "syn_spk_emb": syn_spk_emb}

speaker_manager = SpeakerManager(ResNetSpeakerEncoder().eval())   # init_encoder(...) on the CPU
model = Vits(speaker_manager)
model.to("cuda:0")                                             # trainer: model.cuda()

tokens = torch.randint(0, 20, (2, 16)).to("cuda:0")
wav_seg = torch.randn(2, 128).to("cuda:0")
'''
CELL = '''
outputs = model(tokens, wav_seg)
loss_spk = -F.cosine_similarity(outputs["gt_spk_emb"], outputs["syn_spk_emb"]).mean()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["model.speaker_manager.encoder"]
FIX = "namespace"
REFERENCE_FIX = '''
model.speaker_manager.encoder = model.speaker_manager.encoder.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
