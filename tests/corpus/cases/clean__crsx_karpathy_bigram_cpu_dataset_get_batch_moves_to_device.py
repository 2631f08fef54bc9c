"""Karpathy's "Let's build GPT" bigram.py: the whole token dataset stays on the CPU; `get_batch` moves each batch to `device`.

Source: https://github.com/karpathy/ng-video-lecture/blob/master/bigram.py
The lecture script encodes the text into `data = torch.tensor(encode(text), dtype=torch.long)` on
the CPU, samples offsets with `torch.randint` on the CPU, stacks the slices and returns
`x, y = x.to(device), y.to(device)`; the model is `model.to(device)` and the AdamW step runs on
the device. Look-alike: large CPU tensors beside a GPU model, with the batches moved where they are
used. Stand-in: a short in-line text instead of tinyshakespeare; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn import functional as F

batch_size = 4
block_size = 8
learning_rate = 1e-2
device = torch.device("meta")   # the script: 'cuda' if torch.cuda.is_available() else 'cpu'
torch.manual_seed(1337)

text = "First Citizen: Before we proceed any further, hear me speak. All: Speak, speak. " * 4
chars = sorted(list(set(text)))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda l: ''.join([itos[i] for i in l])

data = torch.tensor(encode(text), dtype=torch.long)
n = int(0.9 * len(data))
train_data = data[:n]
val_data = data[n:]

def get_batch(split):
    data = train_data if split == 'train' else val_data
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    x, y = x.to(device), y.to(device)
    return x, y

class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx, targets=None):
        logits = self.token_embedding_table(idx)
        if targets is None:
            loss = None
        else:
            B, T, C = logits.shape
            logits = logits.view(B * T, C)
            targets = targets.view(B * T)
            loss = F.cross_entropy(logits, targets)
        return logits, loss

model = BigramLanguageModel(vocab_size)
m = model.to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
'''
CELL = '''
for iter in range(3):
    xb, yb = get_batch('train')
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
