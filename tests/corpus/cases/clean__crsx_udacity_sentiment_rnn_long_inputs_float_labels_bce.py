"""Udacity DL nanodegree Sentiment RNN: int inputs cast to LongTensor for the embedding, int labels cast with `.float()` for BCELoss.

Source: https://github.com/udacity/deep-learning-v2-pytorch/blob/master/sentiment-rnn/Sentiment_RNN_Solution.ipynb
The solution notebook's training loop creates the LSTM state with `net.init_hidden(batch_size)`
(`weight.new(...).zero_()`), detaches it per batch, passes `inputs` after
`inputs = inputs.type(torch.LongTensor)` in prediction code, and computes
`criterion(output.squeeze(), labels.float())` with `nn.BCELoss()`: the int64 labels from numpy are
cast to float at the loss. Look-alike: integer data and float model side by side, each converted
where it is consumed. Stand-in: random int reviews instead of the movie-review files; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

train_on_gpu = False

class SentimentRNN(nn.Module):
    def __init__(self, vocab_size, output_size, embedding_dim, hidden_dim, n_layers, drop_prob=0.5):
        super(SentimentRNN, self).__init__()
        self.output_size = output_size
        self.n_layers = n_layers
        self.hidden_dim = hidden_dim
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, n_layers, dropout=drop_prob, batch_first=True)
        self.dropout = nn.Dropout(0.3)
        self.fc = nn.Linear(hidden_dim, output_size)
        self.sig = nn.Sigmoid()

    def forward(self, x, hidden):
        batch_size = x.size(0)
        x = x.long()
        embeds = self.embedding(x)
        lstm_out, hidden = self.lstm(embeds, hidden)
        lstm_out = lstm_out.contiguous().view(-1, self.hidden_dim)
        out = self.dropout(lstm_out)
        out = self.fc(out)
        sig_out = self.sig(out)
        sig_out = sig_out.view(batch_size, -1)
        sig_out = sig_out[:, -1]
        return sig_out, hidden

    def init_hidden(self, batch_size):
        weight = next(self.parameters()).data
        if train_on_gpu:
            hidden = (weight.new(self.n_layers, batch_size, self.hidden_dim).zero_().cuda(),
                      weight.new(self.n_layers, batch_size, self.hidden_dim).zero_().cuda())
        else:
            hidden = (weight.new(self.n_layers, batch_size, self.hidden_dim).zero_(),
                      weight.new(self.n_layers, batch_size, self.hidden_dim).zero_())
        return hidden

rng = np.random.RandomState(0)
train_x = rng.randint(0, 200, size=(40, 20))
train_y = rng.randint(0, 2, size=(40,))
batch_size = 10
train_data = TensorDataset(torch.from_numpy(train_x), torch.from_numpy(train_y))
train_loader = DataLoader(train_data, shuffle=True, batch_size=batch_size)

net = SentimentRNN(vocab_size=201, output_size=1, embedding_dim=16, hidden_dim=32, n_layers=2)
lr = 0.001
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=lr)
clip = 5
'''
CELL = '''
net.train()
h = net.init_hidden(batch_size)
for inputs, labels in train_loader:
    if train_on_gpu:
        inputs, labels = inputs.cuda(), labels.cuda()
    h = tuple([each.data for each in h])
    net.zero_grad()
    output, h = net(inputs, h)
    loss = criterion(output.squeeze(), labels.float())
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), clip)
    optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
