"""NVIDIA tacotron2 inference notebook run on the CPU: the model is on the CPU but the text sequence is still sent with `.cuda()`.

Source: https://github.com/NVIDIA/tacotron2/issues/229
Asking what to change to infer on a CPU, the user's `speech(t)` helper loaded the checkpoint on the
CPU but kept the notebook's `sequence = torch.autograd.Variable(torch.from_numpy(sequence)).cuda().long()`,
and `model.inference(sequence)` failed in `self.embedding(inputs)` with the weight on the CPU and the
input on cuda. The fix is to build `sequence` on the model's device (drop `.cuda()`).
Stand-in: a Tacotron2-shaped `inference` (embedding, conv encoder as linear, decoder projection);
`.cuda()` is written `.to("cuda:0")` for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Tacotron2(nn.Module):
    def __init__(self, n_symbols=148, emb=32, n_mel=80):
        super().__init__()
        self.embedding = nn.Embedding(n_symbols, emb)
        self.encoder = nn.Linear(emb, emb)
        self.decoder = nn.Linear(emb, n_mel)
        self.postnet = nn.Linear(n_mel, n_mel)

    def inference(self, inputs):
        embedded_inputs = self.embedding(inputs).transpose(1, 2)
        encoder_outputs = torch.relu(self.encoder(embedded_inputs.transpose(1, 2)))
        mel_outputs = self.decoder(encoder_outputs)
        mel_outputs_postnet = mel_outputs + self.postnet(mel_outputs)
        return mel_outputs, mel_outputs_postnet, None, None

model = Tacotron2()          # checkpoint loaded with map_location="cpu"
_ = model.eval()
text = "Waveglow is really awesome!"
sequence = np.array([[ord(c) % 148 for c in text]])
sequence = torch.from_numpy(sequence).to("cuda:0").long()
'''
CELL = '''
with torch.no_grad():
    mel_outputs, mel_outputs_postnet, _, alignments = model.inference(sequence)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sequence"]
FIX = "namespace"
REFERENCE_FIX = '''
sequence = sequence.to("cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
