"""ComfyUI_LLM_SDXL_Adapter returns its conditioning on the GPU; "Conditioning (Concat)" joins it with CLIPTextEncode's CPU conditioning.

Source: https://github.com/NeuroSenko/ComfyUI_LLM_SDXL_Adapter/pull/3
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument tensors in method wrapper_CUDA_cat)" with the Conditioning
(Concat) node: ComfyUI's CONDITIONING is a list of `[cond, {"pooled_output": ...}]` pairs kept on
the CPU between nodes, and the adapter node left its tensors on the GPU. The PR moves the
conditioning tensors to the CPU before returning them. Stand-in: CLIPTextEncode and the adapter
node reduced to their outputs' structure, ConditioningConcat as in ComfyUI's nodes.py.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import logging
import torch
from torch import nn

device = torch.device("cuda:0")

class CLIPTextEncode:
    def encode(self, clip, text):
        tokens = torch.randint(0, 49408, (1, 77))
        cond, pooled = clip(tokens)
        return ([[cond, {"pooled_output": pooled}]],)

class TinyCLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(49408, 64)

    def forward(self, tokens):
        h = self.emb(tokens)
        return h, h[:, -1]

class LLMAdapter(nn.Module):
    def __init__(self, llm_dim=96):
        super().__init__()
        self.to_cond = nn.Linear(llm_dim, 64)
        self.to_pooled = nn.Linear(llm_dim, 64)

class ApplyLLMToSDXLAdapter:
    def apply_adapter(self, llm_hidden_states, adapter):
        adapter.to(device)
        hidden = llm_hidden_states.to(device)
        cond = adapter.to_cond(hidden)
        pooled = adapter.to_pooled(hidden.mean(dim=1))
        return ([[cond, {"pooled_output": pooled}]],)

class ConditioningConcat:
    def concat(self, conditioning_to, conditioning_from):
        out = []
        if len(conditioning_from) > 1:
            logging.warning("Warning: ConditioningConcat conditioning_from contains more than 1 cond, only the first one will actually be applied to conditioning_to.")
        cond_from = conditioning_from[0][0]
        for i in range(len(conditioning_to)):
            t1 = conditioning_to[i][0]
            tw = torch.cat((t1, cond_from), 1)
            n = [tw, conditioning_to[i][1].copy()]
            out.append(n)
        return (out,)

clip_conditioning = CLIPTextEncode().encode(TinyCLIP(), "masterpiece, best quality")[0]
llm_hidden_states = torch.randn(1, 32, 96)                       # the LLM loader/encode node (CPU)
adapter_conditioning = ApplyLLMToSDXLAdapter().apply_adapter(llm_hidden_states, LLMAdapter())[0]
'''
CELL = '''
positive = ConditioningConcat().concat(clip_conditioning, adapter_conditioning)[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["adapter_conditioning"]
FIX = "namespace"
REFERENCE_FIX = '''
adapter_conditioning = [[c.cpu(), {k: v.cpu() for k, v in d.items()}] for c, d in adapter_conditioning]
'''
REFERENCE_EDIT = None
CLEAN = False
