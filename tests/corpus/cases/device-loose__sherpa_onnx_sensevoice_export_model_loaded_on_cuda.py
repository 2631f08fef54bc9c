"""sherpa-onnx SenseVoice export script on a machine with a GPU: the model loads on CUDA, the export's dummy inputs are CPU tensors.

Source: https://github.com/k2-fsa/sherpa-onnx/pull/1699
`export-onnx.py` failed with "Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cpu": `SenseVoiceSmall.from_pretrained()` goes through FunASR's
`AutoModel.build_model()`, whose default `device` is "cuda" whenever CUDA is available, while every
tensor the export script builds (the dummy features, lengths, language/text-norm ids) is a CPU
tensor. The PR loads the model with device="cpu". Stand-in: SenseVoiceSmall's query embedding +
encoder head and the script's dummy-input forward.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class SenseVoiceSmall(nn.Module):
    def __init__(self, input_size=560, output_size=64, vocab_size=250):
        super().__init__()
        self.embed = nn.Embedding(7 + 2 + 4, input_size)
        self.encoder = nn.Sequential(nn.Linear(input_size, output_size), nn.ReLU())
        self.ctc_lo = nn.Linear(output_size, vocab_size)

    @classmethod
    def from_pretrained(cls, model="iic/SenseVoiceSmall", device="cuda", **kwargs):
        # funasr AutoModel.build_model: device = kwargs.get("device", "cuda") when CUDA is available
        m = cls()
        m.to("cuda:0" if device == "cuda" else device)
        return m, {"device": device}

    def forward(self, x, x_length, language, text_norm):
        language_query = self.embed(language).unsqueeze(1)
        textnorm_query = self.embed(text_norm).unsqueeze(1)
        x = torch.cat((language_query, textnorm_query, x), dim=1)
        return self.ctc_lo(self.encoder(x))

model, kwargs = SenseVoiceSmall.from_pretrained(model="iic/SenseVoiceSmall")
model.eval()
x = torch.randn(2, 100, 560, dtype=torch.float32)
x_length = torch.tensor([100, 100], dtype=torch.int32)
language = torch.tensor([0, 3], dtype=torch.int32)
text_norm = torch.tensor([14, 15], dtype=torch.int32) - 2
'''
CELL = '''
with torch.no_grad():
    logits = model(x, x_length, language, text_norm)     # torch.onnx.export(model, (x, x_length, language, text_norm), ...)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to("cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
