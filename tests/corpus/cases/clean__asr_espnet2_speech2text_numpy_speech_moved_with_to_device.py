"""ESPnet2 `Speech2Text.__call__`: a numpy waveform becomes a CPU batch that `to_device` moves to the model's device.

Source: https://github.com/espnet/espnet/blob/master/espnet2/bin/asr_inference.py
`Speech2Text` keeps the ASR model on `device` (e.g. "cuda"); `__call__` accepts a numpy array or a
tensor, builds `speech` and `lengths = speech.new_full([1], dtype=torch.long, ...)` on the CPU,
and moves the dict with `batch = to_device(batch, device=self.device)` before `asr_model.encode`.
Look-alike: the user's `speech` is a CPU numpy array while the model is on cuda, by design.
Stand-ins: `to_device` (espnet2.torch_utils.device_funcs, dict/list/tensor branches),
`Speech2Text` reduced to encode + CTC greedy argmax, a small Linear encoder with a CTC head
(`ESPnetASRModel.encode` framing the waveform into 400-sample frames); a random waveform for
`soundfile.read`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import dataclasses
import numpy as np
import torch

def to_device(data, device=None, dtype=None, non_blocking=False, copy=False):
    """Change the device of object recursively"""
    if isinstance(data, dict):
        return {k: to_device(v, device, dtype, non_blocking, copy) for k, v in data.items()}
    elif dataclasses.is_dataclass(data) and not isinstance(data, type):
        return type(data)(*[to_device(v, device, dtype, non_blocking, copy) for v in dataclasses.astuple(data)])
    elif isinstance(data, tuple) and type(data) is not tuple:
        return type(data)(*[to_device(o, device, dtype, non_blocking, copy) for o in data])
    elif isinstance(data, (list, tuple)):
        return type(data)(to_device(v, device, dtype, non_blocking, copy) for v in data)
    elif isinstance(data, np.ndarray):
        return to_device(torch.from_numpy(data), device, dtype, non_blocking, copy)
    elif isinstance(data, torch.Tensor):
        return data.to(device, dtype, non_blocking, copy)
    else:
        return data

class CTC(torch.nn.Module):
    def __init__(self, odim, eprojs):
        super().__init__()
        self.ctc_lo = torch.nn.Linear(eprojs, odim)

    def argmax(self, hs_pad):
        return torch.argmax(self.ctc_lo(hs_pad), dim=2)

class ESPnetASRModel(torch.nn.Module):
    """stand-in: frames the waveform, a Linear encoder, a CTC head"""
    def __init__(self, vocab_size=50, odim=64):
        super().__init__()
        self.encoder = torch.nn.Sequential(torch.nn.Linear(400, odim), torch.nn.ReLU(), torch.nn.LayerNorm(odim))
        self.ctc = CTC(vocab_size, odim)

    def encode(self, speech, speech_lengths):
        feats = speech.unfold(-1, 400, 160)
        feats_lengths = torch.div(speech_lengths - 400, 160, rounding_mode="floor") + 1
        return self.encoder(feats), feats_lengths

class Speech2Text:
    """stand-in of espnet2.bin.asr_inference.Speech2Text (CTC greedy only)"""
    def __init__(self, asr_model, device="cpu", dtype="float32"):
        asr_model.to(dtype=getattr(torch, dtype)).eval()
        self.asr_model = asr_model.to(device)
        self.device = device
        self.dtype = dtype

    @torch.no_grad()
    def __call__(self, speech):
        # Input as audio signal
        if isinstance(speech, np.ndarray):
            speech = torch.tensor(speech)

        # data: (Nsamples,) -> (1, Nsamples)
        speech = speech.unsqueeze(0).to(getattr(torch, self.dtype))
        # lengths: (1,)
        lengths = speech.new_full([1], dtype=torch.long, fill_value=speech.size(1))
        batch = {"speech": speech, "speech_lengths": lengths}

        # a. To device
        batch = to_device(batch, device=self.device)

        # b. Forward Encoder
        enc, _ = self.asr_model.encode(**batch)
        return self.asr_model.ctc.argmax(enc)

speech2text = Speech2Text(ESPnetASRModel(), device="cuda:0")     # device="cuda" in the recipes
speech = np.random.randn(16000).astype(np.float32)                  # speech, rate = soundfile.read("speech.wav")
'''
CELL = '''
token_int = speech2text(speech)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
