"""stable-audio-3 with the default `model_half=True`: user init audio reaches the fp16 autoencoder as float32.

Source: https://github.com/Stability-AI/stable-audio-3/issues/17
Passing init audio (Gradio upload, or `pipeline.generate(prompt=..., init_audio=(sr, audio_tensor))`)
failed in `_encode_audio_input` with "Input type (torch.cuda.FloatTensor) and weight type
(torch.cuda.HalfTensor) should be the same": `from_pretrained(model_half=True)` casts the
pretransform/autoencoder to half, but `prepare_audio()` resamples and pads the user's audio in
float32 and nothing casts it at the model boundary. The reporter proposed casting to the model dtype
there. Stand-in: prepare_audio, a conv-encoder pretransform and the pipeline's init-audio path;
CPU half precision (PyTorch words the error "Input type (float) and bias type (c10::Half)").
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

def prepare_audio(audio, in_sr, target_sr, target_length, target_channels, device):
    audio = audio.to(device).float()
    if in_sr != target_sr:
        audio = nn.functional.interpolate(audio[None], scale_factor=target_sr / in_sr, mode="linear")[0]
    if audio.shape[0] < target_channels:
        audio = audio.repeat(target_channels, 1)
    audio = nn.functional.pad(audio, (0, max(0, target_length - audio.shape[-1])))[..., :target_length]
    return audio.unsqueeze(0)

class AutoencoderPretransform(nn.Module):
    def __init__(self, channels=2, latent_dim=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(channels, 32, 7, stride=4, padding=3), nn.SiLU(),
                                     nn.Conv1d(32, latent_dim, 7, stride=4, padding=3))

    def encode(self, audio):
        return self.encoder(audio)

class StableAudioPipeline:
    def __init__(self, model_half=True, device="cpu"):
        self.device = device
        self.sample_rate, self.sample_size, self.io_channels = 44100, 44100 * 2, 2
        self.pretransform = AutoencoderPretransform().to(device)
        self.model_dtype = torch.float16 if model_half else torch.float32
        if model_half:
            self.pretransform.half()

    @classmethod
    def from_pretrained(cls, name="stable-audio-3-medium", model_half=True, device="cpu"):
        return cls(model_half=model_half, device=device)

    def _encode_audio_input(self, init_audio):
        in_sr, audio = init_audio
        audio = prepare_audio(audio, in_sr=in_sr, target_sr=self.sample_rate, target_length=self.sample_size,
                              target_channels=self.io_channels, device=self.device)
        return self.pretransform.encode(audio)

    def generate(self, prompt, init_audio=None, steps=8):
        init_latent = self._encode_audio_input(init_audio) if init_audio is not None else None
        noise = torch.randn(1, 16, self.sample_size // 16 + 1, dtype=self.model_dtype)
        return noise if init_latent is None else 0.5 * noise + 0.5 * init_latent

pipeline = StableAudioPipeline.from_pretrained("stable-audio-3-medium")     # default model_half=True
audio_tensor = torch.randn(1, 48000 * 2)                                     # uploaded wav, 48 kHz mono
'''
CELL = '''
output = pipeline.generate(prompt="warm analog synth pad", init_audio=(48000, audio_tensor))
'''
EXPECT_ERROR = ("should be the same", "Input type")
CULPRITS = ["pipeline"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        return self.pretransform.encode(audio)\n",
    "        return self.pretransform.encode(audio.to(self.model_dtype))\n",
)
CLEAN = False
