"""lm-evaluation-harness (BigScience fork), HF seq2seq model: `greedy_until` tokenizes the context but never moves it to the model's device.

Source: https://github.com/bigscience-workshop/lm-evaluation-harness/pull/76
"move tokens to device for hf seq2seq": with the seq2seq model on the GPU, generation-based tasks
tokenized each context on the CPU and passed it straight to `self.model.generate`; a reviewer: "there
will be a CUDA/CPU mismatch if this is not fixed". The fix moves the tokens to `self.device`.
Stand-in: a tiny encoder-decoder with `generate` and the harness's `greedy_until` loop.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ToyTokenizer:
    def __call__(self, text, return_tensors="pt", add_special_tokens=False):
        ids = [(sum(map(ord, w)) % 60) + 2 for w in text.split()]
        return {"input_ids": torch.tensor([ids])}

class Seq2SeqLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.shared = nn.Embedding(vocab, d)
        self.encoder = nn.Linear(d, d)
        self.decoder = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def generate(self, input_ids, max_length=8):
        memory = torch.tanh(self.encoder(self.shared(input_ids))).mean(1, keepdim=True)
        out = torch.zeros((input_ids.shape[0], 1), dtype=torch.long, device=input_ids.device)
        for _ in range(max_length - 1):
            h = torch.tanh(self.decoder(self.shared(out)) + memory)
            out = torch.cat([out, self.lm_head(h[:, -1]).argmax(-1, keepdim=True)], dim=-1)
        return out

class HFSeq2SeqLM:
    def __init__(self, device="cuda:0"):
        self._device = torch.device(device)
        self.tokenizer = ToyTokenizer()
        self.model = Seq2SeqLM().to(self._device).eval()

    @property
    def device(self):
        return self._device

    @torch.no_grad()
    def greedy_until(self, requests):
        res = []
        for context, until in requests:
            input_ids = self.tokenizer(context, return_tensors="pt", add_special_tokens=False)["input_ids"]
            generations = self.model.generate(input_ids, max_length=8)
            res.append(generations[0])
        return res

lm = HFSeq2SeqLM("cuda:0")
requests = [("Translate to French: the cat sat on the mat", ["\\n"]), ("Question: who wrote Hamlet? Answer:", ["\\n"])]
'''
CELL = '''
outputs = lm.greedy_until(requests)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('add_special_tokens=False)["input_ids"]',
                  'add_special_tokens=False)["input_ids"].to(self.device)')
CLEAN = False
