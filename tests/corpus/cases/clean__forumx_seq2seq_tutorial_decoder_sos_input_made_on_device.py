"""Look-alike: the seq2seq translation tutorial builds the decoder's SOS input inside `forward` with `device=device` and feeds it `topi` back.

Source: https://github.com/pytorch/tutorials/blob/main/intermediate_source/seq2seq_translation_tutorial.py
`EncoderRNN` (Embedding + GRU, batch_first) and `DecoderRNN` are moved `.to(device)`; the decoder
creates `decoder_input = torch.empty(batch_size, 1, dtype=torch.long, device=device).fill_(SOS_token)`
inside `forward` (a module-level `device`, not a parameter's), takes `encoder_hidden` as its initial
hidden state, and feeds `topi.squeeze(-1).detach()` back as the next input; the loss is `NLLLoss` on
`log_softmax` outputs with LongTensor targets on the device. Everything lands on one device, so the
cell runs. Stand-in: random token batches, a tiny vocabulary; the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

device = torch.device("meta")          # torch.device("cuda" if torch.cuda.is_available() else "cpu")
SOS_token = 0
MAX_LENGTH = 6

class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        output, hidden = self.gru(embedded)
        return output, hidden

class DecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size):
        super(DecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)

    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long, device=device).fill_(SOS_token)
        decoder_hidden = encoder_hidden
        decoder_outputs = []
        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden = self.forward_step(decoder_input, decoder_hidden)
            decoder_outputs.append(decoder_output)
            if target_tensor is not None:
                decoder_input = target_tensor[:, i].unsqueeze(1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = torch.cat(decoder_outputs, dim=1)
        decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
        return decoder_outputs, decoder_hidden, None

    def forward_step(self, input, hidden):
        output = self.embedding(input)
        output = F.relu(output)
        output, hidden = self.gru(output, hidden)
        output = self.out(output)
        return output, hidden

hidden_size, n_in, n_out, batch_size = 16, 30, 25, 4
encoder = EncoderRNN(n_in, hidden_size).to(device)
decoder = DecoderRNN(hidden_size, n_out).to(device)
encoder_optimizer = optim.Adam(encoder.parameters(), lr=0.001)
decoder_optimizer = optim.Adam(decoder.parameters(), lr=0.001)
criterion = nn.NLLLoss()
input_tensor = torch.randint(1, n_in, (batch_size, MAX_LENGTH)).to(device)
target_tensor = torch.randint(1, n_out, (batch_size, MAX_LENGTH)).to(device)
'''
CELL = '''
encoder_optimizer.zero_grad()
decoder_optimizer.zero_grad()
encoder_outputs, encoder_hidden = encoder(input_tensor)
decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, target_tensor)
loss = criterion(
    decoder_outputs.view(-1, decoder_outputs.size(-1)),
    target_tensor.view(-1)
)
loss.backward()
with torch.no_grad():
    greedy, _, _ = decoder(*encoder(input_tensor))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
