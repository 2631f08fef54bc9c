"""Fast-LLM: token ids stored as int16 (vocab < 2**15) reach the embedding uncast; the first forward step crashes.

Source: https://github.com/ServiceNow/Fast-LLM/pull/540
`get_unsigned_integer_type` stores token ids in the narrowest integer type that fits the vocab
(`int16` for vocab 32000), and `TokenBatch.from_documents` concatenated them without a dtype
normalization, so training failed on the first step with "Expected tensor for argument #1 'indices'
to have one of the following scalar types: Long, Int; but got ... ShortTensor". The merged fix casts
the collated tokens to int64. Stand-in: the dataset's narrow-dtype documents, TokenBatch collation
and a tiny Mistral-shaped LM.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import dataclasses
import numpy as np
import torch
import torch.nn as nn

def get_unsigned_integer_type(max_size):
    if max_size < 2**8:
        return torch.uint8
    elif max_size < 2**15:
        return torch.int16
    elif max_size < 2**31:
        return torch.int32
    return torch.int64

@dataclasses.dataclass
class TokenDocument:
    tokens: torch.Tensor

@dataclasses.dataclass
class TokenBatch:
    tokens: torch.Tensor
    lengths: list

    @classmethod
    def from_documents(cls, documents):
        tokens = [document.tokens for document in documents]
        return cls(
            tokens=torch.cat(tokens),
            lengths=[len(t) for t in tokens],
        )

vocab_size = 32000
dtype = get_unsigned_integer_type(vocab_size)
rng = np.random.default_rng(0)
documents = [TokenDocument(torch.from_numpy(rng.integers(0, vocab_size, 16)).to(dtype)) for _ in range(4)]

class TinyLM(nn.Module):
    def __init__(self, vocab_size, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, token_ids):
        return self.head(self.embeddings(token_ids))

model = TinyLM(vocab_size)
batch = TokenBatch.from_documents(documents)
'''
CELL = '''
token_ids = batch.tokens[:-1].unsqueeze(0)
labels = batch.tokens[1:].unsqueeze(0)
logits = model(token_ids)
loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
'''
EXPECT_ERROR = "'indices' to have one of the following scalar types"
CULPRITS = ["batch.tokens"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("tokens=torch.cat(tokens),", "tokens=torch.cat(tokens).to(torch.int64),")
CLEAN = False
