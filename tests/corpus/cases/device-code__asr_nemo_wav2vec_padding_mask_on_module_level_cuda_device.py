"""NeMo wav2vec encoder run with `trainer.accelerator=cpu` on a GPU machine: the padding mask is built on the module-level `DEVICE` (cuda).

Source: https://github.com/NVIDIA-NeMo/Speech/pull/8084
"It is currently impossible to run wav2vec with `trainer.accelerator=cpu` if the machine has a gpu.
The padding_mask is already on the device set in `trainer.accelerator` but if the machine has a GPU
the DEVICE variable will contain cuda": `Wav2VecTransformerEncoder.create_padding_mask` does
`torch.arange(max_len, device=DEVICE)` with `DEVICE = torch.device("cuda" if
torch.cuda.is_available() else "cpu")` at module level, then compares it with the CPU `length`
("Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!").
The merged fix uses `device=length.device`. Simulated with meta as the GPU (`DEVICE` is meta, the
model and data stay on the CPU). Stand-ins: `ConvFeatureEncoder`, `Wav2VecTransformerEncoder` and
`SpeechEncDecSelfSupervisedModel` reduced (one conv, Linear "transformer" layers, no neural types).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

DEVICE = torch.device("meta")     # torch.device("cuda" if torch.cuda.is_available() else "cpu") on a GPU machine

class ConvFeatureEncoder(nn.Module):
    """stand-in of nemo.collections.asr.modules.wav2vec_modules.ConvFeatureEncoder (one conv layer)"""
    def __init__(self, emb_dim=32, kernel_size=10, stride=5):
        super().__init__()
        self.layer_cfg = [{"emb_dim": emb_dim, "kernel_size": kernel_size, "stride": stride}]
        self.conv_layers = nn.ModuleList([nn.Sequential(nn.Conv1d(1, emb_dim, kernel_size, stride=stride, bias=False), nn.GELU())])
        self.layer_norm = nn.LayerNorm(emb_dim)

    def forward(self, input_signal, length):
        processed_signal = input_signal.unsqueeze(1)
        for conv in self.conv_layers:
            processed_signal = conv(processed_signal)
        processed_signal = self.layer_norm(processed_signal.transpose(1, 2)).transpose(1, 2)   # B,C,T
        return processed_signal, self.get_lengths(audio_lengths=length)

    def get_lengths(self, audio_lengths):
        for conv in self.layer_cfg:
            audio_lengths = torch.div(audio_lengths - conv["kernel_size"], conv["stride"], rounding_mode="floor") + 1
        return audio_lengths

class Wav2VecTransformerEncoder(nn.Module):
    """stand-in of nemo.collections.asr.modules.wav2vec_modules.Wav2VecTransformerEncoder"""
    def __init__(self, emb_dim=32, num_layers=2):
        super().__init__()
        self.pos_conv = nn.Sequential(nn.Conv1d(emb_dim, emb_dim, kernel_size=5, padding=2), nn.GELU())
        self.layer_norm = nn.LayerNorm(emb_dim)
        self.layers = nn.ModuleList([nn.Linear(emb_dim, emb_dim) for _ in range(num_layers)])

    def forward(self, audio_signal, length):
        # Padding mask needed for transformer
        padding_mask = self.create_padding_mask(length)

        # Applying padding before convolution
        for idx, len in enumerate(length):
            audio_signal[idx, :, len:] = 0.0

        signal_conv = self.pos_conv(audio_signal)  # B, C, T
        audio_signal = audio_signal + signal_conv
        audio_signal = audio_signal.transpose(1, 2)  # B, C, T -> B, T, C
        audio_signal = self.layer_norm(audio_signal)
        context_emb = self.apply_transformer(audio_signal, padding_mask=padding_mask)
        return context_emb.transpose(1, 2), length

    def apply_transformer(self, x, padding_mask=None):
        encoder_attn_mask = padding_mask.unsqueeze(-1).to(x.dtype)     # form_attention_mask, reduced
        for layer in self.layers:
            x = layer(x) * encoder_attn_mask
        return x

    def create_padding_mask(self, length):
        # Broadcast to vectorize creating the padding mask
        max_len = max(length)
        padding_mask = torch.arange(max_len, device=DEVICE)

        # Switch to binary for transformer, 1 for valid tokens, 0 for padding
        padding_mask = (padding_mask.expand(len(length), max_len) < length.unsqueeze(1)).type(torch.uint8)

        return padding_mask

class SpeechEncDecSelfSupervisedModel(nn.Module):
    """stand-in of nemo.collections.asr.models.SpeechEncDecSelfSupervisedModel (forward only)"""
    def __init__(self):
        super().__init__()
        self.preprocessor = ConvFeatureEncoder()
        self.encoder = Wav2VecTransformerEncoder()

    def forward(self, input_signal, input_signal_length):
        processed_signal, processed_signal_length = self.preprocessor(input_signal, input_signal_length)
        encoded, encoded_len = self.encoder(audio_signal=processed_signal, length=processed_signal_length)
        return encoded, encoded_len

model = SpeechEncDecSelfSupervisedModel()          # trainer.accelerator=cpu: everything stays on the CPU
model.eval()
input_signal = torch.randn(2, 1600)
input_signal_length = torch.tensor([1600, 1200])
'''
CELL = '''
with torch.no_grad():
    encoded, encoded_len = model(input_signal=input_signal, input_signal_length=input_signal_length)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "padding_mask = torch.arange(max_len, device=DEVICE)",
    "padding_mask = torch.arange(max_len, device=length.device)",
)
CLEAN = False
