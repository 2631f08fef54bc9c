"""SummerTime `BartModel(device='cuda')`: the batch is sent to `self.device` but the BART weights were never moved.

Source: https://github.com/Yale-LILY/SummerTime/issues/90
In the showcase notebook, `bart_model = st_model.BartModel(device='cuda')` then `bart_model.summarize(documents)`
fails inside `self.model.generate(**batch)` with a cuda/cpu device error: `summarize` tokenizes with
`.to(self.device)`, but `__init__` stores `device` and loads `BartForConditionalGeneration.from_pretrained(...)`
without `.to(device)`. The issue title says it: "self.model needs to be moved to GPU in BartModel". Stand-ins:
the SummerTime wrapper, a tokenizer returning a BatchEncoding, a tiny BART with a greedy generate.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class BartTokenizer:
    def __call__(self, corpus, truncation=True, padding="longest", return_tensors="pt"):
        ids = [[0] + [(sum(map(ord, w)) % 50000) + 3 for w in d.split()][:60] + [2] for d in corpus]
        n = max(len(x) for x in ids)
        return BatchEncoding(input_ids=torch.tensor([x + [1] * (n - len(x)) for x in ids]),
                             attention_mask=torch.tensor([[1] * len(x) + [0] * (n - len(x)) for x in ids]))
    def batch_decode(self, ids, skip_special_tokens=True):
        return [" ".join(map(str, row)) for row in ids.tolist()]

class BartForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size=50265, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.Linear(d_model, d_model)
        self.decoder = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_length=8):
        enc = torch.tanh(self.encoder(self.shared(input_ids))).mean(1, keepdim=True)
        out = torch.full((input_ids.size(0), 1), 2, dtype=torch.long, device=input_ids.device)
        for _ in range(4):
            h = torch.tanh(self.decoder(self.shared(out) + enc))
            out = torch.cat([out, self.lm_head(h[:, -1]).argmax(-1, keepdim=True)], dim=-1)
        return out

class BartModel:
    def __init__(self, device="cpu"):
        self.device = device
        model_name = "facebook/bart-large-cnn"
        self.tokenizer = BartTokenizer()                 # BartTokenizer.from_pretrained(model_name)
        self.model = BartForConditionalGeneration()      # BartForConditionalGeneration.from_pretrained(model_name)

    def summarize(self, corpus, queries=None):
        batch = self.tokenizer(corpus, truncation=True, padding="longest", return_tensors="pt").to(self.device)
        encoded_summaries = self.model.generate(**batch)
        return encoded_summaries             # tokenizer.batch_decode(...) left out (no .tolist() on fake tensors)

bart_model = BartModel(device="cuda:0")
documents = ["""PG&E stated it scheduled the blackouts in response to forecasts for high winds amid dry
conditions. The aim is to reduce the risk of wildfires."""]
'''
CELL = '''
bart_model.summarize(documents)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["bart_model.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.model = BartForConditionalGeneration()      #",
                  "self.model = BartForConditionalGeneration().to(device)      #")
CLEAN = False
