"""textual_inversion main.py with `--gpus 0`: Lightning keeps the model on the CPU, but FrozenCLIPEmbedder sends the tokens to its default device "cuda".

Source: https://github.com/rinongal/textual_inversion/issues/9
Running main.py failed before the new embedding step with "Expected all tensors to be on the same
device, but found at least two devices" in the CLIP text model. The author: "either the tokenizer
outputs or the embedding models are not being properly moved to the GPU". ldm's
`FrozenCLIPEmbedder.__init__(..., device="cuda")` does `tokens = batch_encoding["input_ids"].to(self.device)`,
whatever device the model is on; with `--gpus 0` (no GPU to Lightning) the model stayed on the CPU.
Solved by `--gpus 1` (the model then goes to the GPU). Stand-in: a small CLIP text model and
tokenizer, FrozenCLIPEmbedder as in ldm (its default "cuda" written "cuda:0", which the CPU
simulation can resolve), the LatentDiffusion conditioning path of a training step.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class CLIPTokenizer:
    def __call__(self, text, truncation=True, max_length=77, padding="max_length", return_tensors="pt"):
        ids = [[49406] + [min(ord(ch), 49000) for ch in t[:max_length - 2]] + [49407] for t in text]
        ids = [row + [49407] * (max_length - len(row)) for row in ids]
        return {"input_ids": torch.tensor(ids)}

class CLIPTextModel(nn.Module):
    def __init__(self, vocab=49408, dim=32, max_pos=77):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.position_embedding = nn.Embedding(max_pos, dim)
        self.final_layer_norm = nn.LayerNorm(dim)

    def forward(self, input_ids):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        return self.final_layer_norm(self.token_embedding(input_ids) + self.position_embedding(pos))

class FrozenCLIPEmbedder(nn.Module):
    """Uses the CLIP transformer encoder for text (from Hugging Face)"""
    def __init__(self, version="openai/clip-vit-large-patch14", device="cuda:0", max_length=77):   # ldm: device="cuda"
        super().__init__()
        self.tokenizer = CLIPTokenizer()
        self.transformer = CLIPTextModel()
        self.device = device
        self.max_length = max_length

    def forward(self, text):
        batch_encoding = self.tokenizer(text, truncation=True, max_length=self.max_length,
                                        padding="max_length", return_tensors="pt")
        tokens = batch_encoding["input_ids"].to(self.device)
        return self.transformer(input_ids=tokens)

    def encode(self, text):
        return self(text)

class LatentDiffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond_stage_model = FrozenCLIPEmbedder()
        self.model = nn.Conv2d(4, 4, 3, padding=1)

    def get_learned_conditioning(self, c):
        return self.cond_stage_model.encode(c)

model = LatentDiffusion()       # trainer = Trainer(gpus=0, ...): nothing moves the model to a GPU
batch = {"caption": ["a photo of *", "a rendering of *"], "image": torch.randn(2, 64, 64, 3)}
'''
CELL = '''
c = model.get_learned_conditioning(batch["caption"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
