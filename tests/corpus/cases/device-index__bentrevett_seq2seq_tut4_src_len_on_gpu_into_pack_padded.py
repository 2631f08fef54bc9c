"""pytorch-seq2seq Tutorial 4 (packed padded sequences): the BucketIterator puts `src_len` on the GPU and the encoder packs with it.

Source: https://github.com/bentrevett/pytorch-seq2seq/issues/156
"Tutorial 4: RuntimeError: 'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0
Long tensor" when training (torch 1.7.1 and Colab). The `SRC` field uses `include_lengths = True`
and `BucketIterator.splits(..., device = device)`, so `batch.src` is `(src, src_len)` with both on
the GPU, and `Encoder.forward` passes `src_len` straight to `nn.utils.rnn.pack_padded_sequence`,
which needs CPU lengths since 1.7. The notebook was fixed to `src_len.to('cpu')`. Reduced: torchtext's
iterator by a list of batches with `.src`/`.trg`, small vocab and dims, the decoder's
`assert (output == hidden).all()` and `loss.item()` dropped; the "GPU" is meta. A meta tensor has no
data to copy back, so the reference edit keeps the lengths on the CPU where the batch is built
rather than copying them back in `Encoder.forward` as the notebook does; either lets it pack.
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import random
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F

random.seed(1234)
torch.manual_seed(1234)
device = torch.device('meta')                       # 'cuda' if torch.cuda.is_available()

class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim, enc_hid_dim, bidirectional = True)
        self.fc = nn.Linear(enc_hid_dim * 2, dec_hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src, src_len):
        embedded = self.dropout(self.embedding(src))
        packed_embedded = nn.utils.rnn.pack_padded_sequence(embedded, src_len)
        packed_outputs, hidden = self.rnn(packed_embedded)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(packed_outputs)
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2,:,:], hidden[-1,:,:]), dim = 1)))
        return outputs, hidden

class Attention(nn.Module):
    def __init__(self, enc_hid_dim, dec_hid_dim):
        super().__init__()
        self.attn = nn.Linear((enc_hid_dim * 2) + dec_hid_dim, dec_hid_dim)
        self.v = nn.Linear(dec_hid_dim, 1, bias = False)

    def forward(self, hidden, encoder_outputs, mask):
        src_len = encoder_outputs.shape[0]
        hidden = hidden.unsqueeze(1).repeat(1, src_len, 1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        energy = torch.tanh(self.attn(torch.cat((hidden, encoder_outputs), dim = 2)))
        attention = self.v(energy).squeeze(2)
        attention = attention.masked_fill(mask == 0, -1e10)
        return F.softmax(attention, dim = 1)

class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout, attention):
        super().__init__()
        self.output_dim = output_dim
        self.attention = attention
        self.embedding = nn.Embedding(output_dim, emb_dim)
        self.rnn = nn.GRU((enc_hid_dim * 2) + emb_dim, dec_hid_dim)
        self.fc_out = nn.Linear((enc_hid_dim * 2) + dec_hid_dim + emb_dim, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input, hidden, encoder_outputs, mask):
        input = input.unsqueeze(0)
        embedded = self.dropout(self.embedding(input))
        a = self.attention(hidden, encoder_outputs, mask).unsqueeze(1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        weighted = torch.bmm(a, encoder_outputs).permute(1, 0, 2)
        rnn_input = torch.cat((embedded, weighted), dim = 2)
        output, hidden = self.rnn(rnn_input, hidden.unsqueeze(0))
        embedded, output, weighted = embedded.squeeze(0), output.squeeze(0), weighted.squeeze(0)
        prediction = self.fc_out(torch.cat((output, weighted, embedded), dim = 1))
        return prediction, hidden.squeeze(0), a.squeeze(1)

class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, src_pad_idx, device):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.src_pad_idx = src_pad_idx
        self.device = device

    def create_mask(self, src):
        return (src != self.src_pad_idx).permute(1, 0)

    def forward(self, src, src_len, trg, teacher_forcing_ratio = 0.5):
        batch_size = src.shape[1]
        trg_len = trg.shape[0]
        outputs = torch.zeros(trg_len, batch_size, self.decoder.output_dim).to(self.device)
        encoder_outputs, hidden = self.encoder(src, src_len)
        input = trg[0,:]
        mask = self.create_mask(src)
        for t in range(1, trg_len):
            output, hidden, _ = self.decoder(input, hidden, encoder_outputs, mask)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            top1 = output.argmax(1)
            input = trg[t] if teacher_force else top1
        return outputs

INPUT_DIM, OUTPUT_DIM, SRC_PAD_IDX, TRG_PAD_IDX = 120, 100, 1, 1
attn = Attention(32, 32)
enc = Encoder(INPUT_DIM, 16, 32, 32, 0.5)
dec = Decoder(OUTPUT_DIM, 16, 32, 32, 0.5, attn)
model = Seq2Seq(enc, dec, SRC_PAD_IDX, device).to(device)
optimizer = optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss(ignore_index = TRG_PAD_IDX)

def make_batch(lengths, trg_len=9):                   # BucketIterator(sort_within_batch=True, device=device)
    src = torch.full((max(lengths), len(lengths)), SRC_PAD_IDX)
    for b, n in enumerate(lengths):
        src[:n, b] = torch.randint(4, INPUT_DIM, (n,))
    trg = torch.randint(4, OUTPUT_DIM, (trg_len, len(lengths)))
    return SimpleNamespace(src=(src.to(device), torch.tensor(lengths).to(device)), trg=trg.to(device))

train_iterator = [make_batch([8, 7, 7, 5]), make_batch([6, 6, 4, 3])]

def train(model, iterator, optimizer, criterion, clip):
    model.train()
    epoch_loss = 0
    for i, batch in enumerate(iterator):
        src, src_len = batch.src
        trg = batch.trg
        optimizer.zero_grad()
        output = model(src, src_len, trg)
        output_dim = output.shape[-1]
        output = output[1:].view(-1, output_dim)
        trg = trg[1:].view(-1)
        loss = criterion(output, trg)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        epoch_loss += loss.detach()
    return epoch_loss / len(iterator)
'''
CELL = '''
CLIP = 1
train_loss = train(model, train_iterator, optimizer, criterion, CLIP)
'''
EXPECT_ERROR = "'lengths' argument should be a 1D CPU int64 tensor"
CULPRITS = ["train_iterator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor(lengths).to(device)", "torch.tensor(lengths)")
CLEAN = False
