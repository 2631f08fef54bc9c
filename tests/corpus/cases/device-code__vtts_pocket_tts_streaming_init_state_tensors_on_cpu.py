"""pocket-tts on cuda: the streaming modules' `init_state()` builds the KV cache and step counters on the CPU.

Source: https://github.com/kyutai-labs/pocket-tts/pull/49
Generating audio with the model moved to a GPU raised a device mismatch: the `init_state()` methods
of the `StatefulModule` subclasses (streaming attention, streaming convs) created their state tensors
with `torch.zeros(...)` and no device, so the cache defaulted to the CPU while the model and the
activations were on cuda. The PR passes the device of the model's parameters down to `init_state`
(and creates the step increment on that device).
Stand-in: a streaming attention layer with `init_state`/`increment_step` and a tiny TTS wrapper.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class StreamingMultiheadAttention(nn.Module):
    def __init__(self, dim=32, context=16):
        super().__init__()
        self.dim, self.context = dim, context
        self.in_proj = nn.Linear(dim, 3 * dim)
        self.out_proj = nn.Linear(dim, dim)

    def init_state(self, batch_size):
        return {"cache": torch.zeros(batch_size, self.context, 2 * self.dim),
                "offset": torch.zeros(batch_size, dtype=torch.long)}

    def forward(self, x, state):
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        kv = torch.cat([state["cache"], torch.cat([k, v], dim=-1)], dim=1)[:, -self.context:]
        state["cache"] = kv
        k, v = kv.chunk(2, dim=-1)
        attn = torch.softmax(q @ k.transpose(1, 2) / self.dim ** 0.5, dim=-1)
        return self.out_proj(attn @ v)

class TTSModel(nn.Module):
    def __init__(self, dim=32, vocab=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.attn = StreamingMultiheadAttention(dim)
        self.head = nn.Linear(dim, vocab)

    def init_states(self, batch_size):
        return self.attn.init_state(batch_size)

    def generate_audio(self, tokens, steps=3):
        state = self.init_states(tokens.shape[0])
        x = self.embed(tokens)
        for _ in range(steps):
            x = x + self.attn(x, state)
        return self.head(x)

tts_model = TTSModel().to("cuda:0")
tokens = torch.randint(0, 64, (1, 6)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    audio = tts_model.generate_audio(tokens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["tts_model.attn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('        return {"cache": torch.zeros(batch_size, self.context, 2 * self.dim),',
                  '        return {"cache": torch.zeros(batch_size, self.context, 2 * self.dim, device=self.in_proj.weight.device),')
CLEAN = False
