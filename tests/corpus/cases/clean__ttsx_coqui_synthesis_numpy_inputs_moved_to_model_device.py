"""Coqui TTS `synthesis()`: token ids, speaker id and d-vector start as numpy and are turned into tensors on the model's device.

Source: https://github.com/coqui-ai/TTS (TTS/tts/utils/synthesis.py: synthesis, numpy_to_torch, id_to_torch, embedding_to_torch, run_model_torch)
`synthesis()` takes `device = next(model.parameters()).device`, tokenises the text into an int32 numpy
array, and converts every input with `numpy_to_torch(text_inputs, torch.long, device=device)`,
`id_to_torch(speaker_id, device=device)` and `embedding_to_torch(d_vector, device=device)` (a
`torch.FloatTensor` made on the CPU, then `.to(device)`); `run_model_torch` builds `input_lengths`
with `.to(inputs.device)`. Look-alike: CPU/numpy inputs and an int32 array feeding a cuda model,
all converted at the boundary; the cell runs.
Stand-ins: a tiny multi-speaker model with `inference(x, aux_input)` and a character tokenizer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def numpy_to_torch(np_array, dtype, cuda=False, device="cpu"):
    if cuda:
        device = "cuda"
    if np_array is None:
        return None
    return torch.as_tensor(np_array, dtype=dtype, device=device)

def id_to_torch(aux_id, cuda=False, device="cpu"):
    if aux_id is not None:
        aux_id = np.asarray(aux_id)
        aux_id = torch.from_numpy(aux_id).to(device)
    return aux_id

def embedding_to_torch(d_vector, cuda=False, device="cpu"):
    if d_vector is not None:
        d_vector = np.asarray(d_vector)
        d_vector = torch.from_numpy(d_vector).type(torch.FloatTensor)
        d_vector = d_vector.squeeze().unsqueeze(0).to(device)
    return d_vector

def run_model_torch(model, inputs, speaker_id=None, d_vector=None):
    input_lengths = torch.tensor(inputs.shape[1:2]).to(inputs.device)
    return model.inference(inputs, aux_input={"x_lengths": input_lengths, "speaker_ids": speaker_id,
                                              "d_vectors": d_vector})

class Tokenizer:
    def text_to_ids(self, text, language=None):
        return [ord(c) % 30 for c in text.lower()]

class MultiSpeakerTTS(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokenizer = Tokenizer()
        self.emb = nn.Embedding(30, 16)
        self.emb_g = nn.Embedding(4, 16)
        self.d_proj = nn.Linear(8, 16)
        self.decoder = nn.Linear(16, 10)

    def inference(self, x, aux_input):
        h = self.emb(x)
        if aux_input["speaker_ids"] is not None:
            h = h + self.emb_g(aux_input["speaker_ids"]).unsqueeze(1)
        if aux_input["d_vectors"] is not None:
            h = h + self.d_proj(aux_input["d_vectors"]).unsqueeze(1)
        return {"model_outputs": self.decoder(h)}

def synthesis(model, text, use_cuda, speaker_id=None, d_vector=None):
    device = next(model.parameters()).device
    text_inputs = np.asarray(model.tokenizer.text_to_ids(text), dtype=np.int32)
    if speaker_id is not None:
        speaker_id = id_to_torch(speaker_id, device=device)
    if d_vector is not None:
        d_vector = embedding_to_torch(d_vector, device=device)
    text_inputs = numpy_to_torch(text_inputs, torch.long, device=device)
    text_inputs = text_inputs.unsqueeze(0)
    outputs = run_model_torch(model, text_inputs, speaker_id, d_vector=d_vector)
    return {"outputs": outputs}

model = MultiSpeakerTTS().eval().to("cuda:0")
d_vector = np.random.randn(1, 8).astype(np.float32)   # speaker_manager.compute_embedding_from_clip(speaker_wav)
'''
CELL = '''
with torch.no_grad():
    out = synthesis(model, "Be a voice, not an echo.", use_cuda=False, speaker_id=[2], d_vector=d_vector)
print(out["outputs"]["model_outputs"].shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
