"""Look-alike: audiocraft `T5Conditioner.tokenize` zeroes the GPU attention mask with a CPU `empty_idx`.

Source: https://github.com/facebookresearch/audiocraft/blob/main/audiocraft/modules/conditioners.py (`T5Conditioner.tokenize` / `forward`)
For a batch of MusicGen descriptions where some are `None` (replaced by ""), `tokenize` builds
`empty_idx = torch.LongTensor([i for i, xi in enumerate(entries) if xi == ""])` on the CPU, moves the
tokenizer output to the conditioner's device, and runs `mask[empty_idx, :] = 0` on that device's
mask: a CPU index tensor into a GPU tensor is allowed. The T5 encoder itself is kept out of the
module tree (`self.__dict__["t5"] = t5.to(device)`), and `forward` casts with
`embeds.to(self.output_proj.weight)`. Stand-ins: a whitespace tokenizer returning a BatchEncoding-like
dict, a one-layer "T5" encoder; "meta" plays the GPU (fake cuda cannot index).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import typing as tp
import torch
from torch import nn

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class T5Tokenizer:
    def __init__(self, vocab=512):
        self.vocab = vocab

    def __call__(self, entries, return_tensors="pt", padding=True):
        words = [e.split() for e in entries]
        n = max(1, max(len(w) for w in words))
        ids = torch.tensor([[sum(map(ord, t)) % self.vocab for t in w] + [0] * (n - len(w)) for w in words])
        mask = torch.tensor([[1] * len(w) + [0] * (n - len(w)) for w in words])
        return BatchEncoding(input_ids=ids, attention_mask=mask)

class T5Encoder(nn.Module):
    def __init__(self, vocab=512, dim=32):
        super().__init__()
        self.shared = nn.Embedding(vocab, dim)
        self.block = nn.Linear(dim, dim)

    def forward(self, input_ids, attention_mask):
        return self.block(self.shared(input_ids))

class T5Conditioner(nn.Module):
    def __init__(self, name="t5-base", output_dim=16, device="cpu"):
        super().__init__()
        self.device = device
        self.dim = 32
        self.output_proj = nn.Linear(self.dim, output_dim)
        self.t5_tokenizer = T5Tokenizer()
        t5 = T5Encoder(dim=self.dim).eval()
        self.__dict__["t5"] = t5.to(device)          # not saved to checkpoint

    def tokenize(self, x: tp.List[tp.Optional[str]]) -> tp.Dict[str, torch.Tensor]:
        entries: tp.List[str] = [xi if xi is not None else "" for xi in x]
        empty_idx = torch.LongTensor([i for i, xi in enumerate(entries) if xi == ""])
        inputs = self.t5_tokenizer(entries, return_tensors="pt", padding=True).to(self.device)
        mask = inputs["attention_mask"]
        mask[empty_idx, :] = 0  # zero-out index where the input is non-existant
        return inputs

    def forward(self, inputs):
        mask = inputs["attention_mask"]
        embeds = self.t5(**inputs)
        embeds = self.output_proj(embeds.to(self.output_proj.weight))
        embeds = (embeds * mask.unsqueeze(-1))
        return embeds, mask

device = "meta"                                              # "cuda" on the GPU machine
conditioner = T5Conditioner(device=device).to(device)        # built by the LM, moved with it
descriptions = ["happy rock with electric guitars", None, "sad jazz piano"]
'''
CELL = '''
tokens = conditioner.tokenize(descriptions)
embeds, mask = conditioner(tokens)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
