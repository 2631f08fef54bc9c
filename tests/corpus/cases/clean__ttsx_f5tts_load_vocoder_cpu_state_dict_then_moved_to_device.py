"""F5-TTS `load_vocoder`: the Vocos checkpoint is read with `map_location="cpu"` into a CPU-built vocoder that is then moved to the device.

Source: https://github.com/SWivid/F5-TTS (src/f5_tts/infer/utils_infer.py: load_vocoder)
`vocoder = Vocos.from_hparams(config_path)` builds the model on the CPU, `state_dict =
torch.load(model_path, map_location="cpu", weights_only=True)` keeps the weights on the CPU,
`vocoder.load_state_dict(state_dict)` copies them in, and only then `vocoder = vocoder.eval().to(device)`;
inference later calls `vocoder.decode(generated_mel_spec)` with the mel on the same device. Look-alike:
CPU checkpoint tensors next to a cuda model, deliberately and harmlessly.
Stand-ins: a Vocos-shaped vocoder (backbone conv + ISTFT-like head), the checkpoint an in-memory CPU
state dict (no download), a mel produced on the device.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Vocos(nn.Module):
    def __init__(self, n_mels=8, dim=16, n_fft=16):
        super().__init__()
        self.backbone = nn.Conv1d(n_mels, dim, 7, padding=3)
        self.head = nn.Linear(dim, n_fft + 2)

    @classmethod
    def from_hparams(cls, config_path):
        return cls()

    @torch.inference_mode()
    def decode(self, features_input):
        x = self.backbone(features_input).transpose(1, 2)
        mag, phase = self.head(x).chunk(2, dim=-1)
        return (torch.exp(mag) * torch.cos(phase)).flatten(1)

def load_vocoder(vocoder_name="vocos", is_local=True, local_path="ckpts/vocos", device="cuda:0"):
    config_path = f"{local_path}/config.yaml"
    vocoder = Vocos.from_hparams(config_path)
    state_dict = checkpoint_on_disk          # torch.load(model_path, map_location="cpu", weights_only=True)
    vocoder.load_state_dict(state_dict)
    vocoder = vocoder.eval().to(device)
    return vocoder

checkpoint_on_disk = {k: v.clone() for k, v in Vocos().state_dict().items()}
device = "cuda:0"
vocoder = load_vocoder(device=device)
generated_mel_spec = torch.randn(1, 8, 20, device=device)    # CFM sample, permuted to (B, n_mels, T)
'''
CELL = '''
generated_wave = vocoder.decode(generated_mel_spec)
print(generated_wave.shape, generated_wave.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
