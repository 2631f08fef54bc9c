"""Look-alike: docTR's CRNN builds its CTC targets and lengths as int32 tensors (from numpy) next to float log-probabilities.

Source: https://github.com/mindee/doctr/blob/main/doctr/models/recognition/crnn/pytorch.py
`CRNN.compute_loss` encodes the target words with `build_target` (an int32 numpy array), makes
`input_length = model_output.shape[1] * torch.ones(size=(batch_len,), dtype=torch.int32)` and passes
`torch.from_numpy(gt)`, `input_length` and `torch.tensor(seq_len, dtype=torch.int)` to
`F.ctc_loss` with float32 log-probs: CTC takes int32 (or int64) targets and lengths, so the mixed
dtypes are by design. A training step (forward with targets, backward, optimizer step) runs.
Nothing to report. Stand-in: a small conv feature extractor, the CRNN LSTM/linear head and a
simple vocab encoder in place of `encode_sequences`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

class CRNN(nn.Module):
    def __init__(self, vocab, rnn_units=16, input_shape=(3, 32, 128)):
        super().__init__()
        self.vocab = vocab
        self.max_length = 32
        self.feat_extractor = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                            nn.MaxPool2d((8, 4)))
        with torch.inference_mode():
            out_shape = self.feat_extractor(torch.zeros((1, *input_shape))).shape
        lstm_in = out_shape[1] * out_shape[2]
        self.decoder = nn.LSTM(input_size=lstm_in, hidden_size=rnn_units, batch_first=True, num_layers=2,
                               bidirectional=True)
        self.linear = nn.Linear(in_features=2 * rnn_units, out_features=len(vocab) + 1)

    def build_target(self, gts):
        encoded = np.full((len(gts), self.max_length), len(self.vocab), dtype=np.int32)   # encode_sequences(...)
        for i, word in enumerate(gts):
            encoded[i, :len(word)] = [self.vocab.index(c) for c in word]
        return encoded, [len(word) for word in gts]

    def compute_loss(self, model_output, target):
        gt, seq_len = self.build_target(target)
        batch_len = model_output.shape[0]
        input_length = model_output.shape[1] * torch.ones(size=(batch_len,), dtype=torch.int32)
        logits = model_output.permute(1, 0, 2)
        probs = F.log_softmax(logits, dim=-1)
        return F.ctc_loss(probs, torch.from_numpy(gt), input_length, torch.tensor(seq_len, dtype=torch.int),
                          len(self.vocab), zero_infinity=True)

    def forward(self, x, target=None):
        features = self.feat_extractor(x)
        c, h, w = features.shape[1], features.shape[2], features.shape[3]
        features_seq = torch.transpose(torch.reshape(features, shape=(-1, h * c, w)), 1, 2)
        logits, _ = self.decoder(features_seq)
        logits = self.linear(logits)
        out = {"out_map": logits}
        if target is not None:
            out["loss"] = self.compute_loss(logits, target)
        return out

vocab = "0123456789abcdefghijklmnopqrstuvwxyz"
model = CRNN(vocab)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
images = torch.rand(4, 3, 32, 128)            # a batch of word crops from the recognition DataLoader
targets = ["invoice", "total", "2024", "tax"]
'''
CELL = '''
model.train()
train_loss = model(images, targets)["loss"]
optimizer.zero_grad()
train_loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
