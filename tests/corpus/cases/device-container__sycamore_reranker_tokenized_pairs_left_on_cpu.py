"""Cross-encoder reranking: the tokenizer's output dict stays on the CPU, the scoring model is on the GPU.

Source: https://github.com/aryn-ai/sycamore/pull/983
"Move tokenized data to device: the tokenized data was living in the CPU (since tokenizer is only
on the cpu), needed to move it to the gpu for scoring." The reranker tokenized the (query,
document) pairs with `return_tensors="pt"` and called `model(**inputs)` with the model on cuda.
Stand-in: a character tokenizer returning a dict of tensors and a tiny cross-encoder.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")

class PairTokenizer:
    def __call__(self, pairs, max_length=24):
        ids = torch.zeros(len(pairs), max_length, dtype=torch.long)
        types = torch.zeros(len(pairs), max_length, dtype=torch.long)
        for i, (q, d) in enumerate(pairs):
            toks = [ord(c) % 100 for c in (q + "|" + d)][:max_length]
            ids[i, :len(toks)] = torch.tensor(toks)
            types[i, len(q) + 1:len(toks)] = 1
        return {"input_ids": ids, "token_type_ids": types, "attention_mask": (ids > 0).long()}

class Output:
    def __init__(self, logits):
        self.logits = logits

class CrossEncoder(nn.Module):
    def __init__(self, vocab=100, hidden=16):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.classifier = nn.Linear(hidden, 1)

    def forward(self, input_ids, token_type_ids, attention_mask, return_dict=True):
        h = self.word(input_ids) + self.token_type(token_type_ids)
        h = (h * attention_mask.unsqueeze(-1)).sum(1) / attention_mask.sum(1, keepdim=True)
        return Output(self.classifier(h))

tokenizer = PairTokenizer()
model = CrossEncoder().to(device).eval()
query = "what is a lidar"
docs = ["lidar measures distance with laser light", "a recipe for bread", "radar uses radio waves"]
pairs = [[query, d] for d in docs]
inputs = tokenizer(pairs)
'''
CELL = '''
with torch.no_grad():
    scores = model(**inputs, return_dict=True).logits.view(-1).float()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = {k: v.to(device) for k, v in inputs.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
