"""Mastering PyTorch ch. 4 RNN sentiment model: the batch's `label` field is int64 for `BCEWithLogitsLoss`.

Source: https://github.com/PacktPublishing/Mastering-PyTorch/issues/4
Training rnn.py raised "result type Float can't be cast to the desired output type Long" in the
loss. A commenter traced it: `loss_func = nn.BCEWithLogitsLoss()` expects float targets, the IMDB
sentiment labels arrive as LongTensor; fix `loss_func(preds, sentiment.float())` or build the label
field as float. Stand-in: a torchtext-like batch object with `.text` and `.label`.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

class RNN(nn.Module):
    def __init__(self, vocab=100, emb=16, hid=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.rnn = nn.RNN(emb, hid)
        self.fc = nn.Linear(hid, 1)

    def forward(self, text):
        _, h = self.rnn(self.embedding(text))
        return self.fc(h.squeeze(0))

class Batch:
    def __init__(self, text, label):
        self.text, self.label = text, label

rnn_model = RNN()
opt = torch.optim.Adam(rnn_model.parameters())
loss_func = nn.BCEWithLogitsLoss()
batch = Batch(text=torch.randint(0, 100, (12, 8)), label=torch.randint(0, 2, (8,)))
'''
CELL = '''
opt.zero_grad()
preds = rnn_model(batch.text).squeeze(1)
loss_curr = loss_func(preds, batch.label)
loss_curr.backward()
opt.step()
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["batch.label"]
FIX = "namespace"
REFERENCE_FIX = '''
batch.label = batch.label.float()
'''
REFERENCE_EDIT = None
CLEAN = False
