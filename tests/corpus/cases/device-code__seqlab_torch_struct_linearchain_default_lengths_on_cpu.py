"""torch-struct LinearChainCRF on GPU potentials without `lengths`: the default lengths are built on the CPU.

Source: https://github.com/harvardnlp/pytorch-struct/issues/68
"Lengths on the same device as potentials": for LinearCRF and similar APIs, `lengths` is optional,
"so if users simply input potentials on cuda, torch-struct will result error" - the default
`lengths = torch.LongTensor([N] * batch)` in `LinearChain._check_potentials` is a CPU tensor, and
`_dp_scan` compares it with a mask made on the potentials' device. srush fixed it with
`.to(edge.device)` ("I fixed this most places"). Stand-in: `LinearChainCRF.partition` ->
`LinearChain.sum` -> `_dp_scan` as of April 2020 with a reduced log semiring, fed by a small
BiLSTM tagger's edge potentials; meta is the accelerator ("... not on the expected device meta!").
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn as nn

class LogSemiring:
    """torch_struct.semirings.LogSemiring, reduced."""
    zero = torch.tensor(-1e5)
    one = torch.tensor(0.0)

    @staticmethod
    def size():
        return 1

    @staticmethod
    def convert(x):
        return x.unsqueeze(0)

    @staticmethod
    def unconvert(x):
        return x.squeeze(0)

    @classmethod
    def zero_(cls, x):
        return x.fill_(-1e5)

    @classmethod
    def one_(cls, x):
        return x.fill_(0.0)

    @staticmethod
    def zero_mask_(x, mask):
        x.masked_fill_(mask.unsqueeze(0), -1e5)

    @staticmethod
    def sum(xs, dim=-1):
        return torch.logsumexp(xs, dim=dim)

    @staticmethod
    def matmul(a, b):
        return torch.logsumexp(a.unsqueeze(-1) + b.unsqueeze(-3), dim=-2)


class LinearChain:
    """torch_struct.LinearChain (April 2020), reduced to the forward scan."""
    def __init__(self, semiring=LogSemiring):
        self.semiring = semiring

    def _bin_length(self, length):
        log_N = int(math.ceil(math.log(length, 2)))
        return log_N, int(math.pow(2, log_N))

    def _chart(self, size, potentials):
        return self.semiring.zero_(torch.zeros(*((self.semiring.size(),) + size),
                                               dtype=potentials.dtype, device=potentials.device))

    def _check_potentials(self, edge, lengths=None):
        batch, N_1, C, C2 = edge.shape
        edge = self.semiring.convert(edge)
        N = N_1 + 1
        if lengths is None:
            lengths = torch.LongTensor([N] * batch)
        assert C == C2, "Transition shape doesn't match"
        return edge, batch, N, C, lengths

    def _dp_scan(self, log_potentials, lengths=None):
        semiring = self.semiring
        ssize = semiring.size()
        log_potentials, batch, N, C, lengths = self._check_potentials(log_potentials, lengths)
        log_N, bin_N = self._bin_length(N - 1)
        chart = self._chart((batch, bin_N, C, C), log_potentials)
        semiring.one_(chart[:, :, :].diagonal(0, 3, 4))

        big = torch.zeros(ssize, batch, bin_N, C, C, dtype=log_potentials.dtype, device=log_potentials.device)
        big[:, :, : N - 1] = log_potentials
        c = chart[:, :, :].view(ssize, batch * bin_N, C, C)
        lp = big[:, :, :].view(ssize, batch * bin_N, C, C)
        mask = torch.arange(bin_N).view(1, bin_N).expand(batch, bin_N).type_as(c)
        mask = mask >= (lengths - 1).view(batch, 1)
        mask = mask.view(batch * bin_N, 1, 1).to(lp.device)
        semiring.zero_mask_(lp.data, mask)
        semiring.zero_mask_(c.data, (~mask))
        c[:] = semiring.sum(torch.stack([c.data, lp], dim=-1))

        for n in range(1, log_N + 1):
            chart = semiring.matmul(chart[:, :, 1::2], chart[:, :, 0::2])
        v = semiring.sum(semiring.sum(chart[:, :, 0].contiguous()))
        return v

    def sum(self, edge, lengths=None):
        return self.semiring.unconvert(self._dp_scan(edge, lengths))


class LinearChainCRF:
    """torch_struct.LinearChainCRF (a StructDistribution), reduced."""
    struct = LinearChain

    def __init__(self, log_potentials, lengths=None):
        self.log_potentials = log_potentials
        self.lengths = lengths

    def _struct(self, sr=None):
        return self.struct(sr if sr is not None else LogSemiring)

    @property
    def partition(self):
        return self._struct(LogSemiring).sum(self.log_potentials, self.lengths)


class BiLSTMCRFTagger(nn.Module):
    def __init__(self, vocab=100, emb=16, hidden=16, C=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden // 2, batch_first=True, bidirectional=True)
        self.out = nn.Linear(hidden, C)
        self.transition = nn.Parameter(torch.randn(C, C))

    def forward(self, words):
        h, _ = self.lstm(self.emb(words))
        scores = self.out(h)                                    # b x N x C
        # edge potentials phi(n, z_{n+1}, z_n): b x (N-1) x C x C
        return scores[:, 1:].unsqueeze(3) + self.transition.unsqueeze(0).unsqueeze(0)

device = torch.device("meta")          # stands in for cuda
model = BiLSTMCRFTagger().to(device)
words = torch.randint(0, 100, (4, 9)).to(device)
log_potentials = model(words)
'''
CELL = '''
dist = LinearChainCRF(log_potentials)
log_Z = dist.partition
'''
EXPECT_ERROR = "is not on the expected device"
CULPRITS = ["lengths"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "lengths = torch.LongTensor([N] * batch)",
    "lengths = torch.LongTensor([N] * batch).to(edge.device)",
)
CLEAN = False
