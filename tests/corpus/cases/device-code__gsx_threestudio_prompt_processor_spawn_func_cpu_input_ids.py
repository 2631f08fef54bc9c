"""threestudio: the prompt processor's `spawn_func` feeds CPU token ids to a text encoder loaded with `device_map="auto"`.

Source: https://github.com/threestudio-project/threestudio/pull/258
Issue #249 ("ProlificDreamer pipeline crashes on mixed tensor devices") shows the traceback at
`stable_diffusion_prompt_processor.py` `spawn_func`: `text_embeddings = text_encoder(tokens.input_ids)[0]`
ending in the CLIP token embedding with "Expected all tensors to be on the same device" (#236 reports
the same error on the example configs). `CLIPTextModel.from_pretrained(..., device_map="auto")` places the encoder on cuda:0 while
the tokenizer returns CPU ids. PR #258 "Fix not on same device error" moves the ids:
`text_encoder(tokens.input_ids.to(text_encoder.device))`.
Stand-ins: a character tokenizer returning padded `input_ids`, a small CLIPTextModel (token + position
embeddings, one layer) whose `from_pretrained(device_map="auto")` builds it on the CPU and moves it to
cuda:0, and a dict playing the on-disk embedding cache written by `torch.save`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import hashlib
import os
from types import SimpleNamespace
import torch
import torch.nn as nn

class AutoTokenizer:
    """Stand-in for the CLIP tokenizer: characters hashed into a small vocabulary."""
    model_max_length = 77
    @classmethod
    def from_pretrained(cls, path, subfolder=None):
        return cls()
    def __call__(self, prompts, padding="max_length", max_length=77, return_tensors="pt"):
        ids = []
        for p in prompts:
            row = [1] + [2 + (ord(c) % 990) for c in p][: max_length - 2] + [0]
            ids.append(row + [0] * (max_length - len(row)))
        return SimpleNamespace(input_ids=torch.tensor(ids, dtype=torch.long))

class CLIPTextModel(nn.Module):
    """Stand-in: token + position embeddings and one transformer layer."""
    def __init__(self, vocab=1000, width=64, max_len=77):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, width)
        self.position_embedding = nn.Embedding(max_len, width)
        self.register_buffer("position_ids", torch.arange(max_len).unsqueeze(0))
        self.layer = nn.Sequential(nn.LayerNorm(width), nn.Linear(width, width), nn.GELU())
    @property
    def device(self):
        return self.token_embedding.weight.device
    @classmethod
    def from_pretrained(cls, path, subfolder=None, device_map=None):
        model = cls()
        if device_map == "auto":
            model.to("cuda:0")          # accelerate puts the whole encoder on the first GPU
        return model
    def forward(self, input_ids):
        seq = input_ids.shape[-1]
        h = self.token_embedding(input_ids) + self.position_embedding(self.position_ids.narrow(1, 0, seq))
        return (self.layer(h),)

def hash_prompt(model, prompt):
    return hashlib.md5(f"{model}-{prompt}".encode()).hexdigest()

_embedding_cache = {}   # plays the files that torch.save writes under cache_dir

class StableDiffusionPromptProcessor:
    @staticmethod
    def spawn_func(pretrained_model_name_or_path, prompts, cache_dir):
        os.environ["TOKENIZERS_PARALLELISM"] = "false"
        tokenizer = AutoTokenizer.from_pretrained(
            pretrained_model_name_or_path, subfolder="tokenizer"
        )
        text_encoder = CLIPTextModel.from_pretrained(
            pretrained_model_name_or_path,
            subfolder="text_encoder",
            device_map="auto",
        )

        with torch.no_grad():
            tokens = tokenizer(
                prompts,
                padding="max_length",
                max_length=tokenizer.model_max_length,
                return_tensors="pt",
            )
            text_embeddings = text_encoder(tokens.input_ids)[0]

        for prompt, embedding in zip(prompts, text_embeddings.unbind(0)):
            _embedding_cache[os.path.join(cache_dir, f"{hash_prompt(pretrained_model_name_or_path, prompt)}.pt")] = embedding

        del text_encoder

pretrained_model_name_or_path = "stabilityai/stable-diffusion-2-1-base"
prompts = ["a fluffy sheep doll sitting on the floor", ""]
cache_dir = ".threestudio_cache/text_embeddings"
'''
CELL = '''
StableDiffusionPromptProcessor.spawn_func(pretrained_model_name_or_path, prompts, cache_dir)
print(len(_embedding_cache))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["StableDiffusionPromptProcessor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("text_embeddings = text_encoder(tokens.input_ids)[0]",
                  "text_embeddings = text_encoder(tokens.input_ids.to(text_encoder.device))[0]")
CLEAN = False
