"""ClipCap `train.py`: the dataset serves fp16 CLIP prefixes and CPU-built masks; the loop moves all three and casts the prefix to float32.

Source: https://github.com/rmokady/CLIP_prefix_caption/blob/main/train.py (and parse_coco.py).
`parse_coco.py` stores `clip_model.encode_image(image).cpu()` from the fp16 CLIP model, so the
pickled prefixes are half; `ClipCocoDataset.pad_tokens` builds the attention mask on the CPU with
`torch.cat((torch.ones(self.prefix_length), mask), dim=0)`. `train` does
`tokens, mask, prefix = tokens.to(device), mask.to(device), prefix.to(device, dtype=torch.float32)`
before `model(tokens, prefix, mask)`, so the float32 `clip_project` MLP and GPT-2 see one device
and one dtype. One optimisation step runs. Stand-in: ClipCocoDataset without the tokenizer/pickle
(token tensors given), `MLP` and `ClipCaptionModel` as in train.py with a two-layer toy GPT-2
(`transformer.wte`, blocks, `lm_head`, `attention_mask` used as an additive key mask), torch's AdamW
and a LambdaLR warmup for `get_linear_schedule_with_warmup`, no tqdm/`loss.item()`; the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn import functional as nnf
from torch.utils.data import Dataset, DataLoader
from types import SimpleNamespace
from typing import Tuple, Optional

# --- toy GPT2LMHeadModel ---------------------------------------------------------------------------
class GPT2Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x, attention_mask):
        q, k, v = self.c_attn(self.ln_1(x)).chunk(3, dim=-1)
        att = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        causal = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool, device=x.device).tril()
        att = att.masked_fill(~causal, float("-inf")) + (1.0 - attention_mask[:, None, :]) * -10000.0
        x = x + self.c_proj(att.softmax(-1) @ v)
        return x + self.mlp(self.ln_2(x))

class GPT2LMHeadModel(nn.Module):
    def __init__(self, vocab=60, d=32, n_layer=2, n_pos=64):
        super().__init__()
        self.transformer = nn.Module()
        self.transformer.wte = nn.Embedding(vocab, d)
        self.transformer.wpe = nn.Embedding(n_pos, d)
        self.transformer.h = nn.ModuleList([GPT2Block(d) for _ in range(n_layer)])
        self.transformer.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
    @classmethod
    def from_pretrained(cls, name):
        return cls()
    def forward(self, inputs_embeds=None, labels=None, attention_mask=None):
        pos = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device)
        x = inputs_embeds + self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = block(x, attention_mask)
        return SimpleNamespace(logits=self.lm_head(self.transformer.ln_f(x)))

# --- train.py ----------------------------------------------------------------------------------------
class ClipCocoDataset(Dataset):
    def __len__(self) -> int:
        return len(self.captions_tokens)

    def pad_tokens(self, item: int):
        tokens = self.captions_tokens[item]
        padding = self.max_seq_len - tokens.shape[0]
        if padding > 0:
            tokens = torch.cat((tokens, torch.zeros(padding, dtype=torch.int64) - 1))
            self.captions_tokens[item] = tokens
        elif padding < 0:
            tokens = tokens[:self.max_seq_len]
            self.captions_tokens[item] = tokens
        mask = tokens.ge(0)  # mask is zero where we out of sequence
        tokens[~mask] = 0
        mask = mask.float()
        mask = torch.cat((torch.ones(self.prefix_length), mask), dim=0)  # adding prefix mask
        return tokens, mask

    def __getitem__(self, item: int) -> Tuple[torch.Tensor, ...]:
        tokens, mask = self.pad_tokens(item)
        prefix = self.prefixes[self.caption2embedding[item]]
        return tokens, mask, prefix

    def __init__(self, all_data, captions_tokens, prefix_length: int):
        self.prefix_length = prefix_length
        self.prefixes = all_data["clip_embedding"]
        self.captions_tokens = captions_tokens
        self.caption2embedding = [caption["clip_embedding"] for caption in all_data["captions"]]
        self.max_seq_len = max(len(t) for t in captions_tokens)

class MLP(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x)
    def __init__(self, sizes: Tuple[int, ...], bias=True, act=nn.Tanh):
        super(MLP, self).__init__()
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(nn.Linear(sizes[i], sizes[i + 1], bias=bias))
            if i < len(sizes) - 2:
                layers.append(act())
        self.model = nn.Sequential(*layers)

class ClipCaptionModel(nn.Module):
    def get_dummy_token(self, batch_size: int, device: torch.device) -> torch.Tensor:
        return torch.zeros(batch_size, self.prefix_length, dtype=torch.int64, device=device)

    def forward(self, tokens: torch.Tensor, prefix: torch.Tensor, mask: Optional[torch.Tensor] = None,
                labels: Optional[torch.Tensor] = None):
        embedding_text = self.gpt.transformer.wte(tokens)
        prefix_projections = self.clip_project(prefix).view(-1, self.prefix_length, self.gpt_embedding_size)
        embedding_cat = torch.cat((prefix_projections, embedding_text), dim=1)
        if labels is not None:
            dummy_token = self.get_dummy_token(tokens.shape[0], tokens.device)
            labels = torch.cat((dummy_token, tokens), dim=1)
        out = self.gpt(inputs_embeds=embedding_cat, labels=labels, attention_mask=mask)
        return out

    def __init__(self, prefix_length: int, prefix_size: int = 24):
        super(ClipCaptionModel, self).__init__()
        self.prefix_length = prefix_length
        self.gpt = GPT2LMHeadModel.from_pretrained('gpt2')
        self.gpt_embedding_size = self.gpt.transformer.wte.weight.shape[1]
        self.clip_project = MLP((prefix_size, (self.gpt_embedding_size * prefix_length) // 2,
                                 self.gpt_embedding_size * prefix_length))

# parse_coco.py: prefix = clip_model.encode_image(image).cpu()  -> fp16 embeddings in the pickle
all_data = {"clip_embedding": torch.randn(4, 24).half(),
            "captions": [{"image_id": i, "clip_embedding": i} for i in range(4)]}
captions_tokens = [torch.randint(1, 60, (n,)) for n in (6, 9, 4, 7)]
prefix_length = 5
dataset = ClipCocoDataset(all_data, captions_tokens, prefix_length)

device = torch.device('meta')        # torch.device('cuda:0')
model = ClipCaptionModel(prefix_length)
model = model.to(device)
model.train()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / 5000))
train_dataloader = DataLoader(dataset, batch_size=2, shuffle=True, drop_last=True)
'''
CELL = '''
for idx, (tokens, mask, prefix) in enumerate(train_dataloader):
    model.zero_grad()
    tokens, mask, prefix = tokens.to(device), mask.to(device), prefix.to(device, dtype=torch.float32)
    outputs = model(tokens, prefix, mask)
    logits = outputs.logits[:, dataset.prefix_length - 1: -1]
    loss = nnf.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens.flatten(), ignore_index=0)
    loss.backward()
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
