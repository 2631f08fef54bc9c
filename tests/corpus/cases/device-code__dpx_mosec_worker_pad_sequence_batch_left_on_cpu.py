"""mosec sentence-embedding worker: the dynamically batched, padded input is not moved to the model's GPU.

Source: https://github.com/mosecorg/mosec/pull/98
In the example worker, each request is tokenized into a tensor and the batch is built with
`torch.nn.utils.rnn.pad_sequence(tensors, batch_first=True)` and passed to `self.model`, which sits
on `self.device` (cuda): a device error. The PR moves the padded batch with `.to(self.device)`.
Stand-in: the worker's forward over a list of token-id lists, a toy tokenizer and a small mean-pooled
embedding model.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Encoder(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
    def forward(self, input_ids):
        mask = input_ids.ne(0).float()
        x = self.proj(self.embed(input_ids))
        x = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return (x,)

class Inference:
    """the example's Worker subclass: called with the dynamically batched requests."""
    def __init__(self):
        self.device = torch.device("cuda:0")
        self.model = Encoder().to(self.device)
        self.model.eval()

    def tokenize(self, text):
        return [sum(map(ord, w)) % 99 + 1 for w in text.split()]

    def forward(self, data):
        tensors = [torch.tensor(self.tokenize(text)) for text in data]
        with torch.no_grad():
            result = self.model(torch.nn.utils.rnn.pad_sequence(tensors, batch_first=True))[0]
        return result

worker = Inference()
requests = ["a short query", "a somewhat longer query with more words", "hi"]
'''
CELL = '''
embeddings = worker.forward(requests)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["worker"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.nn.utils.rnn.pad_sequence(tensors, batch_first=True))[0]",
                  "torch.nn.utils.rnn.pad_sequence(tensors, batch_first=True).to(self.device))[0]")
CLEAN = False
