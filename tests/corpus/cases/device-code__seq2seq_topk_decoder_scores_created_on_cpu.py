"""pytorch-seq2seq `TopKDecoder`: beam scores and beam offsets are made with `torch.Tensor`/`torch.LongTensor` inside forward.

Source: https://github.com/IBM/pytorch-seq2seq/pull/123
"solve the problem that TopKDecoder can not run with gpu" (fixes #102, #120): in `forward` the
decoder builds `self.pos_index = Variable(torch.LongTensor(range(batch_size)) * self.k)` and
`sequence_scores = torch.Tensor(batch_size * self.k, 1)` on the CPU, then adds the GPU decoder's
log-softmax output to them. Stand-in: a plain RNN-cell decoder wrapped by a TopKDecoder with the same
bookkeeping.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class DecoderRNN(nn.Module):
    def __init__(self, vocab_size=20, hidden_size=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.w_ih = nn.Linear(hidden_size, hidden_size)
        self.w_hh = nn.Linear(hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward_step(self, input_var, hidden):
        hidden = torch.tanh(self.w_ih(self.embedding(input_var)) + self.w_hh(hidden))
        return F.log_softmax(self.out(hidden), dim=-1), hidden

class TopKDecoder(nn.Module):
    def __init__(self, decoder_rnn, k, sos_id=1):
        super().__init__()
        self.rnn = decoder_rnn
        self.k = k
        self.V = decoder_rnn.out.out_features
        self.SOS = sos_id

    def forward(self, encoder_hidden, max_length=4):
        batch_size = encoder_hidden.size(0)
        self.pos_index = (torch.LongTensor(range(batch_size)) * self.k).view(-1, 1)
        sequence_scores = torch.Tensor(batch_size * self.k, 1)
        sequence_scores.fill_(-float('Inf'))
        sequence_scores.index_fill_(0, torch.LongTensor([i * self.k for i in range(0, batch_size)]), 0.0)
        hidden = encoder_hidden.repeat_interleave(self.k, dim=0)
        input_var = torch.full((batch_size * self.k,), self.SOS, dtype=torch.long, device=encoder_hidden.device)
        for _ in range(max_length):
            log_softmax_output, hidden = self.rnn.forward_step(input_var, hidden)
            sequence_scores = sequence_scores.repeat(1, self.V)
            sequence_scores += log_softmax_output
            scores, candidates = sequence_scores.view(batch_size, -1).topk(self.k, dim=1)
            input_var = (candidates % self.V).view(batch_size * self.k)
            sequence_scores = scores.view(batch_size * self.k, 1)
            predecessors = (torch.div(candidates, self.V, rounding_mode="floor")
                            + self.pos_index.expand_as(candidates)).view(batch_size * self.k)
            hidden = hidden.index_select(0, predecessors)
        return sequence_scores.view(batch_size, self.k)

device = torch.device("cuda:0")
topk_decoder = TopKDecoder(DecoderRNN(), k=3).to(device)
encoder_hidden = torch.randn(2, 16).to(device)
'''
CELL = '''
beam_scores = topk_decoder(encoder_hidden)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["topk_decoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        self.pos_index = (torch.LongTensor(range(batch_size)) * self.k).view(-1, 1)
        sequence_scores = torch.Tensor(batch_size * self.k, 1)
        sequence_scores.fill_(-float('Inf'))
        sequence_scores.index_fill_(0, torch.LongTensor([i * self.k for i in range(0, batch_size)]), 0.0)""",
    """        dev = encoder_hidden.device
        self.pos_index = (torch.LongTensor(range(batch_size)) * self.k).view(-1, 1).to(dev)
        sequence_scores = torch.Tensor(batch_size * self.k, 1).to(dev)
        sequence_scores.fill_(-float('Inf'))
        sequence_scores.index_fill_(0, torch.LongTensor([i * self.k for i in range(0, batch_size)]).to(dev), 0.0)""",
)
CLEAN = False
