"""Qwen3-Omni Talker (speech synthesis) setup: fp32 Thinker embeddings go through the bf16 Talker `text_projection`.

Source: https://github.com/mstar-project/mstar/pull/138
Building the Talker (the text-to-speech half of Qwen3-Omni) crashed at setup with "RuntimeError: mat1
and mat2 must have the same dtype": `TalkerSubmodule.init_tts_embeds` looks the TTS pad/bos/eos
token ids up in the Thinker's embedding table (fp32) and projects them through the Talker's
`text_projection`, whose parameters are now allocated in the autocast dtype (bf16). The merged fix
casts the embedding output to `self.model.text_projection.linear_fc1.weight.dtype` before projecting.
Stand-ins: a Thinker with an fp32 `embed_tokens`, a Talker model whose `text_projection` MLP is in
bf16, and the TalkerLLMSubmodule with the same init_tts_embeds; CPU, dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class ResizeMLP(nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.linear_fc1 = nn.Linear(in_dim, hidden)
        self.linear_fc2 = nn.Linear(hidden, out_dim)

    def forward(self, x):
        return self.linear_fc2(nn.functional.silu(self.linear_fc1(x)))

class Qwen3OmniTalkerModel(nn.Module):
    def __init__(self, thinker_hidden=24, hidden=16, dtype=torch.bfloat16):
        super().__init__()
        self.text_projection = ResizeMLP(thinker_hidden, hidden, hidden).to(dtype)
        self.codec_embedding = nn.Embedding(32, hidden).to(dtype)

class TalkerLLMSubmodule(nn.Module):
    def __init__(self, talker_model, config):
        super().__init__()
        self.model = talker_model
        self.config = config
        self._tts_pad_embed_cached = None
        self._tts_bos_embed_cached = None
        self._tts_eos_embed_cached = None

    def init_tts_embeds(self, thinker_embed_tokens):
        device = next(self.model.parameters()).device
        with torch.no_grad():
            pad_raw = thinker_embed_tokens(torch.tensor([self.config.tts_pad_token_id], device=device))
            bos_raw = thinker_embed_tokens(torch.tensor([self.config.tts_bos_token_id], device=device))
            eos_raw = thinker_embed_tokens(torch.tensor([self.config.tts_eos_token_id], device=device))
            self._tts_pad_embed_cached = self.model.text_projection(pad_raw)
            self._tts_bos_embed_cached = self.model.text_projection(bos_raw)
            self._tts_eos_embed_cached = self.model.text_projection(eos_raw)

config = SimpleNamespace(tts_pad_token_id=5, tts_bos_token_id=6, tts_eos_token_id=7)
thinker = SimpleNamespace(embed_tokens=nn.Embedding(64, 24))          # Thinker weights, fp32
talker = TalkerLLMSubmodule(Qwen3OmniTalkerModel(dtype=torch.bfloat16), config)
'''
CELL = '''
talker.init_tts_embeds(thinker.embed_tokens)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "same dtype")
CULPRITS = ["talker"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        device = next(self.model.parameters()).device\n        with torch.no_grad():\n            pad_raw = thinker_embed_tokens(torch.tensor([self.config.tts_pad_token_id], device=device))\n            bos_raw = thinker_embed_tokens(torch.tensor([self.config.tts_bos_token_id], device=device))\n            eos_raw = thinker_embed_tokens(torch.tensor([self.config.tts_eos_token_id], device=device))\n",
                  "        device = next(self.model.parameters()).device\n        proj_dtype = self.model.text_projection.linear_fc1.weight.dtype\n        with torch.no_grad():\n            pad_raw = thinker_embed_tokens(torch.tensor([self.config.tts_pad_token_id], device=device)).to(proj_dtype)\n            bos_raw = thinker_embed_tokens(torch.tensor([self.config.tts_bos_token_id], device=device)).to(proj_dtype)\n            eos_raw = thinker_embed_tokens(torch.tensor([self.config.tts_eos_token_id], device=device)).to(proj_dtype)\n")
CLEAN = False
