"""A sentence embedding stored through `datasets` comes back as float64 and is fed to a GRU as its hidden state.

Source: https://github.com/huggingface/datasets/issues/625
"dtype of tensors should be preserved": the user's `map` function returned a float32 tensor
`sembedding` (sentence-transformers output) next to `input_ids`; `datasets` stores it as a list
(Arrow float64), and with `set_format("torch")` it comes back as a float64 tensor. The model,
which uses the sentence embedding as the GRU's initial hidden state, broke on the double. The
maintainers confirmed the cast happens in the Arrow round trip. Stand-in: the formatted batch
as `datasets` returns it (a dict of tensors, `sembedding` float64).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SentenceGRU(nn.Module):
    def __init__(self, vocab=50, emb=8, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 2)

    def forward(self, input_ids, sembedding):
        h0 = sembedding.unsqueeze(0)          # sentence embedding as the initial hidden state
        out, h = self.gru(self.embed(input_ids), h0)
        return self.out(h[-1])

model = SentenceGRU()

# what `dataset.set_format("torch")` hands back: the float32 embeddings were stored in Arrow as
# lists of Python floats (float64); the torch formatter goes Arrow -> numpy -> torch.tensor
rows = {"input_ids": [[3, 7, 9, 1], [4, 4, 2, 8]],
        "sembedding": np.random.rand(2, 16).astype(np.float32).tolist()}
batch = {k: torch.tensor(np.asarray(v)) for k, v in rows.items()}
'''
CELL = '''
logits = model(batch["input_ids"], batch["sembedding"])
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["batch['sembedding']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["sembedding"] = batch["sembedding"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
