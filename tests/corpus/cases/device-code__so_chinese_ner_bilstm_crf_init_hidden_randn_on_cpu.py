"""BiLSTM-CRF NER (the PyTorch tutorial model, batched) on a GPU: `init_hidden()` returns CPU tensors.

Source: https://github.com/buppt/ChineseNER/issues/17
Running the repository's PyTorch BiLSTM_CRF on a GPU, `train.py` failed in
`model.neg_log_likelihood(sentence, tags)` -> `_get_lstm_features` -> `self.lstm(embeds,
self.hidden)` with "Input and hidden tensors are not at the same device, found input tensor at
cuda:0 and hidden tensor at cpu": `init_hidden()` builds the initial (h, c) with `torch.randn(...)`
and no device, and `_get_lstm_features` calls it on every batch. The author only had a CPU and
pointed to the official tutorial. Stand-in: the model's embedding/LSTM/linear path; the cell runs
the LSTM feature step where the error arose (the CRF scoring after it is left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

START_TAG, STOP_TAG = "<START>", "<STOP>"

class BiLSTM_CRF(nn.Module):
    def __init__(self, vocab_size, tag_to_ix, embedding_dim, hidden_dim, batch_size):
        super(BiLSTM_CRF, self).__init__()
        self.embedding_dim = embedding_dim
        self.hidden_dim = hidden_dim
        self.vocab_size = vocab_size
        self.tag_to_ix = tag_to_ix
        self.tagset_size = len(tag_to_ix)
        self.batch_size = batch_size
        self.word_embeds = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim // 2, num_layers=1, bidirectional=True, batch_first=True)
        self.hidden2tag = nn.Linear(hidden_dim, self.tagset_size)
        self.transitions = nn.Parameter(torch.randn(self.tagset_size, self.tagset_size))
        self.hidden = self.init_hidden()

    def init_hidden(self):
        return (torch.randn(2, self.batch_size, self.hidden_dim // 2),
                torch.randn(2, self.batch_size, self.hidden_dim // 2))

    def _get_lstm_features(self, sentence):
        self.hidden = self.init_hidden()
        length = sentence.shape[1]
        embeds = self.word_embeds(sentence).view(self.batch_size, length, self.embedding_dim)
        lstm_out, self.hidden = self.lstm(embeds, self.hidden)
        lstm_out = lstm_out.view(self.batch_size, -1, self.hidden_dim)
        lstm_feats = self.hidden2tag(lstm_out)
        return lstm_feats

tag2id = {"O": 0, "B_ns": 1, "M_ns": 2, "E_ns": 3, START_TAG: 4, STOP_TAG: 5}
device = torch.device("cuda:0")
model = BiLSTM_CRF(vocab_size=3000, tag_to_ix=tag2id, embedding_dim=100, hidden_dim=200, batch_size=32).to(device)
sentence = torch.randint(1, 3000, (32, 60), device=device)
tags = torch.randint(0, 4, (32, 60), device=device)
'''
CELL = '''
feats = model._get_lstm_features(sentence)
'''
EXPECT_ERROR = ("Input and hidden tensors are not at the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        return (torch.randn(2, self.batch_size, self.hidden_dim // 2),\n                torch.randn(2, self.batch_size, self.hidden_dim // 2))",
    "        device = self.transitions.device\n        return (torch.randn(2, self.batch_size, self.hidden_dim // 2, device=device),\n                torch.randn(2, self.batch_size, self.hidden_dim // 2, device=device))",
)
CLEAN = False
