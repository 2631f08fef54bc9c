"""Look-alike: pytorch/examples word_language_model builds its hidden state in `init_hidden` with `weight.new_zeros`.

Source: https://github.com/pytorch/examples/pull/1287
The PR adds a `--device` choice to word_language_model/main.py; the model is moved with
`model = RNNModel(...).to(device)`, the corpus is batchified `.to(device)`, and each epoch starts
with `hidden = model.init_hidden(args.batch_size)`. `init_hidden` calls
`weight = next(self.parameters())` and `weight.new_zeros(self.nlayers, bsz, self.nhid)`: a tensor
created inside a model method without a `device=` argument, which lands on the weights' device by
construction, and `repackage_hidden` detaches it each step. Stand-in: the example's RNNModel (LSTM)
and train() body on a random token stream; the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)

def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)

device = torch.device("meta")          # --device cuda, simulated with meta
bptt, batch_size, clip, lr = 5, 4, 0.25, 20.0

def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data.to(device)

def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i+seq_len]
    target = source[i+1:i+1+seq_len].view(-1)
    return data, target

ntokens = 50
train_data = batchify(torch.randint(0, ntokens, (84,)), batch_size)
model = RNNModel('LSTM', ntokens, 16, 16, 2, 0.2).to(device)
criterion = nn.NLLLoss()
'''
CELL = '''
model.train()
hidden = model.init_hidden(batch_size)
for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
    data, targets = get_batch(train_data, i)
    model.zero_grad()
    hidden = repackage_hidden(hidden)
    output, hidden = model(data, hidden)
    loss = criterion(output, targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
