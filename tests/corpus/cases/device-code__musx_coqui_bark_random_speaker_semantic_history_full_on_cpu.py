"""coqui-tts Bark on the GPU without a reference voice: the padding semantic history is built on the CPU.

Source: https://github.com/idiap/coqui-ai-TTS/pull/512
`TTS("tts_models/multilingual/multi-dataset/bark").to("cuda")` then `tts.tts_to_file("hello world", ...)`
with a random speaker failed with "Expected all tensors to be on the same device". An earlier fix
(79b9116) created `encoded_text` on `model.device`, but in `generate_text_semantic` the branch taken
when no history prompt / reference audio is given still builds
`semantic_history = torch.full((256,), SEMANTIC_PAD_TOKEN, dtype=torch.int64)` on the CPU, and
`torch.cat([encoded_text, semantic_history, ...])` mixes devices. The maintainer's fix (PR #512,
"the previous fix only worked when reference audio was provided") creates it on `model.device`.
Stand-in: `generate_text_semantic` reduced to the context build and one sampling step, a tiny GPT
semantic model and a character tokenizer; the token ids are scaled down with the vocabulary. "meta" plays the GPU (fake cuda
constant-folds the `torch.tensor(...)` ids and cannot run the concatenation).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class BarkConfig:
    TEXT_ENCODING_OFFSET = 100
    TEXT_PAD_TOKEN = 1295
    SEMANTIC_PAD_TOKEN = 100
    SEMANTIC_INFER_TOKEN = 1299
    SEMANTIC_VOCAB_SIZE = 100

class CharTokenizer:
    def encode(self, text, add_special_tokens=False):
        return [ord(c) % 90 for c in text]

class GPT(nn.Module):
    """Bark's semantic GPT (stand-in): merge_context sums the text and history halves."""
    def __init__(self, vocab=1300, dim=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx, merge_context=False, use_cache=False, past_kv=None):
        text, history, infer = torch.split(idx, [256, 256, idx.shape[1] - 512], dim=1)
        h = torch.cat([self.wte(text) + self.wte(history), self.wte(infer)], dim=1)
        return self.lm_head(h), None

class Bark(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = BarkConfig()
        self.tokenizer = CharTokenizer()
        self.semantic_model = GPT()

    @property
    def device(self):
        return next(self.parameters()).device

    def generate_audio(self, text, history_prompt=(None, None, None)):
        return generate_text_semantic(text, self, history_prompt)

def _tokenize(tokenizer, text):
    return tokenizer.encode(text, add_special_tokens=False)

@torch.inference_mode()
def generate_text_semantic(text, model, history_prompt, temp=0.7, base=None):
    if all(v is not None for v in history_prompt) or base is not None:
        semantic_history = history_prompt[0]
    else:
        semantic_history = None
    encoded_text = (
        torch.tensor(_tokenize(model.tokenizer, text), device=model.device, dtype=torch.long)
        + model.config.TEXT_ENCODING_OFFSET
    )
    encoded_text = F.pad(encoded_text, (0, 256 - len(encoded_text)), mode="constant",
                         value=model.config.TEXT_PAD_TOKEN)
    if semantic_history is not None:
        semantic_history = semantic_history.to(dtype=torch.int64)
        semantic_history = F.pad(semantic_history, (0, 256 - len(semantic_history)), mode="constant",
                                 value=model.config.SEMANTIC_PAD_TOKEN)
    else:
        semantic_history = torch.full((256,), model.config.SEMANTIC_PAD_TOKEN, dtype=torch.int64)
    x = torch.cat(
        [encoded_text, semantic_history, torch.tensor([model.config.SEMANTIC_INFER_TOKEN], device=model.device)]
    ).unsqueeze(0)
    logits, kv_cache = model.semantic_model(x, merge_context=True, use_cache=True, past_kv=None)
    return logits.argmax(-1)

model = Bark().to("meta")            # TTS("tts_models/multilingual/multi-dataset/bark").to("cuda")
'''
CELL = '''
semantic_tokens = model.generate_audio("hello world")          # random speaker: no voice given
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["generate_text_semantic"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "semantic_history = torch.full((256,), model.config.SEMANTIC_PAD_TOKEN, dtype=torch.int64)",
    "semantic_history = torch.full((256,), model.config.SEMANTIC_PAD_TOKEN, dtype=torch.int64, device=model.device)",
)
CLEAN = False
