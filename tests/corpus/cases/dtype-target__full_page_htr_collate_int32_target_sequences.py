"""Full-page handwriting recognition on Windows: the collated target sequences are int32 and reach CrossEntropyLoss.

Source: https://github.com/tobiasvanderwerff/full-page-handwriting-recognition/issues/4
Training on Windows failed in the model's forward at `loss = self.loss_fn(...)`, inside
`F.cross_entropy`, with "expected scalar type Long but found Int". The targets are padded numpy
arrays turned into a tensor by the collate function, and numpy's default integer on Windows is
32-bit; the maintainer suspected "an explicit cast to Long is necessary for the targets". Stand-in:
a tiny encoder-decoder with teacher forcing that computes its loss in `forward`, the dataset/collate
shape of the repo, and the Windows int32 made explicit.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

PAD, SOS, EOS, VOCAB = 0, 1, 2, 80

class IAMDataset(Dataset):
    def __init__(self, n=32):
        rng = np.random.default_rng(0)
        self.imgs = [rng.random((64, 128), dtype=np.float32) for _ in range(n)]
        self.targets = [rng.integers(3, VOCAB, size=rng.integers(5, 20)) for _ in range(n)]
    def __len__(self):
        return len(self.imgs)
    def __getitem__(self, i):
        return self.imgs[i], self.targets[i]

def collate_fn(batch):
    imgs, targets = zip(*batch)
    width = max(len(t) for t in targets) + 2
    padded = np.full((len(targets), width), PAD, dtype=np.int32)   # np.int_ is int32 on Windows
    for row, t in zip(padded, targets):
        row[:len(t) + 2] = [SOS, *t, EOS]
    return torch.from_numpy(np.stack(imgs)).unsqueeze(1), torch.from_numpy(padded)

class FullPageHTREncoderDecoder(nn.Module):
    def __init__(self, d_model=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 8, 4, stride=4), nn.ReLU(), nn.Flatten(2))
        self.enc_proj = nn.Linear(8, d_model)
        self.emb = nn.Embedding(VOCAB, d_model)
        self.decoder = nn.GRU(d_model, d_model, batch_first=True)
        self.clf = nn.Linear(d_model, VOCAB)
        self.loss_fn = nn.CrossEntropyLoss(ignore_index=PAD)

    def forward(self, imgs, targets):
        memory = self.enc_proj(self.encoder(imgs).transpose(1, 2)).mean(dim=1)
        dec_in = self.emb(targets[:, :-1])
        out, _ = self.decoder(dec_in, memory.unsqueeze(0).contiguous())
        logits = self.clf(out)
        loss = self.loss_fn(logits.transpose(1, 2), targets[:, 1:])
        return logits, loss

ds_train = IAMDataset()
dl_train = DataLoader(ds_train, batch_size=8, shuffle=True, collate_fn=collate_fn)
model = FullPageHTREncoderDecoder()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
imgs, targets = next(iter(dl_train))
'''
CELL = '''
optimizer.zero_grad()
logits, loss = model(imgs, targets)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long but found Int",
                "expected target dtype to be Long or Byte, but got Int")
CULPRITS = ["targets"]
FIX = "namespace"
REFERENCE_FIX = '''
targets = targets.long()
'''
REFERENCE_EDIT = None
CLEAN = False
