"""InvokeAI FLUX.2 Klein prompt node: the Qwen3 embeddings are saved CPU-backed on purpose and moved to the denoiser's device when loaded.

Source: https://github.com/invoke-ai/InvokeAI/blob/main/invokeai/app/invocations/flux2_klein_text_encoder.py
After encoding on the encoder's compute device, `invoke()` does
`qwen3_embeds = qwen3_embeds.detach().to("cpu")` and `pooled_embeds = pooled_embeds.detach().to("cpu")`
before `context.conditioning.save(...)` ("Save the conditioning CPU-backed: this node is
idle_gpu_offloadable ... tensors left on it would pin VRAM"). The denoise node loads the stored
conditioning and moves it to its own device and dtype before the transformer's text projection.
CPU embeddings in the store next to a cuda transformer, by design: it runs.
Stand-ins: the encode step (a small encoder on the GPU), the conditioning store as a dict, the
denoise side's load-and-move and the transformer's `txt_in` projection; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn

@dataclass
class FLUXConditioningInfo:
    clip_embeds: torch.Tensor
    t5_embeds: torch.Tensor

@dataclass
class ConditioningFieldData:
    conditionings: list

class ConditioningStore:                       # context.conditioning
    def __init__(self):
        self._data = {}

    def save(self, data):
        name = f"cond_{len(self._data)}"
        self._data[name] = data
        return name

    def load(self, name):
        return self._data[name]

device = torch.device("cuda:0")
text_encoder = nn.Sequential(nn.Embedding(200, 16), nn.Linear(16, 48)).to(device)
txt_in = nn.Linear(48, 32).to(device)          # FLUX.2 transformer's text projection
conditioning_store = ConditioningStore()

@torch.no_grad()
def encode_prompt(input_ids):
    out = text_encoder(input_ids.to(device))
    return out, out.mean(dim=1)

@torch.no_grad()
def klein_text_encoder_invoke(input_ids):
    qwen3_embeds, pooled_embeds = encode_prompt(input_ids)
    # Save the conditioning CPU-backed (idle_gpu_offloadable node)
    qwen3_embeds = qwen3_embeds.detach().to("cpu")
    pooled_embeds = pooled_embeds.detach().to("cpu")
    conditioning_data = ConditioningFieldData(
        conditionings=[FLUXConditioningInfo(clip_embeds=pooled_embeds, t5_embeds=qwen3_embeds)])
    return conditioning_store.save(conditioning_data)

@torch.no_grad()
def load_text_conditioning(conditioning_name, dtype, device):
    cond_data = conditioning_store.load(conditioning_name)
    info = cond_data.conditionings[0]
    return info.t5_embeds.to(dtype=dtype, device=device), info.clip_embeds.to(dtype=dtype, device=device)

conditioning_name = klein_text_encoder_invoke(torch.randint(0, 200, (1, 32)))
'''
CELL = '''
txt, vec = load_text_conditioning(conditioning_name, dtype=torch.float32, device=device)
txt_tokens = txt_in(txt)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
