"""Whisper loaded in float16, the processor's log-mel features left in float32.

Source: https://github.com/kadirnar/whisper-plus/issues/58
"RuntimeError: Input type (float) and bias type (struct c10::Half) should be the same": the
transcription pipeline loads the Whisper model with `torch_dtype=torch.float16`, while the
feature extractor returns `input_features` as float32; the encoder's first Conv1d rejects them.
The features must be cast to the model's dtype. Stand-in: the encoder's conv stem and a processor
returning float32 features.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class WhisperEncoderStem(nn.Module):
    def __init__(self, n_mels=80, d_model=64):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, d_model, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(d_model, d_model, kernel_size=3, stride=2, padding=1)
        self.embed_positions = nn.Embedding(1500, d_model)

    def forward(self, input_features):
        x = nn.functional.gelu(self.conv1(input_features))
        x = nn.functional.gelu(self.conv2(x)).permute(0, 2, 1)
        return x + self.embed_positions.weight[: x.shape[1]]

def processor(audio, sampling_rate=16000):
    """WhisperFeatureExtractor stand-in: float32 log-mel features."""
    frames = len(audio) // 160
    mel = np.log(np.abs(np.random.randn(80, frames)) + 1e-6).astype(np.float32)
    return {"input_features": torch.from_numpy(mel)[None]}

model = WhisperEncoderStem().to(torch.float16)     # from_pretrained(..., torch_dtype=torch.float16)
audio = np.random.randn(16000 * 2).astype(np.float32)
input_features = processor(audio)["input_features"]
'''
CELL = '''
encoder_out = model(input_features)
'''
EXPECT_ERROR = ("Input type (float) and bias type (c10::Half) should be the same",
                "should be the same")
CULPRITS = ["input_features"]
FIX = "namespace"
REFERENCE_FIX = '''
input_features = input_features.to(torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
