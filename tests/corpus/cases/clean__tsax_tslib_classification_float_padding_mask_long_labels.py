"""Time-Series-Library classification: float padding mask and int64 labels from the CPU loader, moved and cast per batch.

Source: https://github.com/thuml/Time-Series-Library/blob/main/exp/exp_classification.py
`Exp_Classification.train` loops over `(batch_x, label, padding_mask)` from the UEA loader (CPU,
`collate_fn` builds a bool padding mask and int64 labels of shape [B, 1]) and does
`batch_x.float().to(device)`, `padding_mask.float().to(device)`, `label.to(device)`, then
`loss = criterion(outputs, label.long().squeeze(-1))`; the TimesNet classification head multiplies
the features by the float padding mask (`output * x_mark_enc.unsqueeze(-1)`). Look-alike: a bool
mask used as float, integer labels of another shape beside float logits, which runs. Stand-in:
TimesNet's classification head over a linear embedding instead of the TimesBlocks; the optimizer
step is left out (the GPU is simulated, no autograd).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def __init__(self, configs):
        super().__init__()
        self.seq_len = configs.seq_len
        self.enc_embedding = nn.Linear(configs.enc_in, configs.d_model)
        self.act = F.gelu
        self.dropout = nn.Dropout(configs.dropout)
        self.projection = nn.Linear(configs.d_model * configs.seq_len, configs.num_class)

    def classification(self, x_enc, x_mark_enc):
        enc_out = self.enc_embedding(x_enc)
        output = self.act(enc_out)
        output = self.dropout(output)
        output = output * x_mark_enc.unsqueeze(-1)           # zero-out padding embeddings
        output = output.reshape(output.shape[0], -1)
        return self.projection(output)

    def forward(self, x_enc, x_mark_enc, x_dec, x_mark_dec, mask=None):
        return self.classification(x_enc, x_mark_enc)

class Args:
    seq_len, enc_in, d_model, dropout, num_class = 29, 3, 16, 0.1, 9

def collate_fn(data, max_len):
    features, labels = zip(*data)
    lengths = [X.shape[0] for X in features]
    X = torch.zeros(len(features), max_len, features[0].shape[-1])
    for i in range(len(features)):
        end = min(lengths[i], max_len)
        X[i, :end, :] = features[i][:end, :]
    targets = torch.stack(labels, dim=0)
    padding_masks = torch.arange(0, max_len).unsqueeze(0) < torch.tensor(lengths).unsqueeze(1)
    return X, targets, padding_masks

args = Args()
device = torch.device("cuda:0")
model = Model(args).float().to(device)
criterion = nn.CrossEntropyLoss()
rng = random.Random(0)
samples = [(torch.randn(rng.randint(20, 29), args.enc_in), torch.tensor([rng.randint(0, 8)], dtype=torch.int64))
           for _ in range(16)]
train_loader = [collate_fn(samples[i:i + 8], args.seq_len) for i in range(0, 16, 8)]
'''
CELL = '''
train_loss = []
model.train()
for i, (batch_x, label, padding_mask) in enumerate(train_loader):
    batch_x = batch_x.float().to(device)
    padding_mask = padding_mask.float().to(device)
    label = label.to(device)
    outputs = model(batch_x, padding_mask, None, None)
    loss = criterion(outputs, label.long().squeeze(-1))
    train_loss.append(loss)
print(len(train_loss), outputs.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
