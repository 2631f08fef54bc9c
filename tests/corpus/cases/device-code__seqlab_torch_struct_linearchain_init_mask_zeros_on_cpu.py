"""torch-struct LinearChainCRF on GPU potentials: `logpartition` builds its `init` mask with `torch.zeros` on the CPU.

Source: https://github.com/harvardnlp/pytorch-struct/issues/111
"Device mismatch in LinearChainCRF" (reported by kmkurn): `init = torch.zeros(*chart.shape).bool()`
in `LinearChain.logpartition` "causes device mismatch error if `chart` is in GPU because `init` will
always be created in CPU. I think it should be updated to `torch.zeros_like(chart).bool()`"; srush
agreed ("Need to get the gpu tests in the CI"). `semiring.fill` then runs `torch.where(init, one,
chart)` across the two devices. Stand-in: `LinearChainCRF.partition` -> `LinearChain.sum` ->
`logpartition` as of October 2021 with a reduced log semiring, fed by a small BiLSTM tagger's edge
potentials; meta is the accelerator ("... not on the expected device cpu!").
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
    one = torch.tensor(-0.0)

    @staticmethod
    def size():
        return 1

    @staticmethod
    def convert(potentials):
        return potentials.unsqueeze(0)

    @staticmethod
    def unconvert(potentials):
        return potentials.squeeze(0)

    @staticmethod
    def fill(c, mask, v):
        return torch.where(mask, v.type_as(c).view((-1,) + (1,) * (len(c.shape) - 1)), c)

    @staticmethod
    def sum(xs, dim=-1):
        return torch.logsumexp(xs, dim=dim)

    @staticmethod
    def matmul(a, b):
        return torch.logsumexp(a.unsqueeze(-1) + b.unsqueeze(-3), dim=-2)


class LinearChain:
    """torch_struct.LinearChain (October 2021), reduced to the forward scan."""
    def __init__(self, semiring=LogSemiring):
        self.semiring = semiring

    def _get_dimension(self, edge):
        edge.requires_grad_(True)
        return edge.shape

    def _bin_length(self, length):
        log_N = int(math.ceil(math.log(length, 2)))
        return log_N, int(math.pow(2, log_N))

    def _chart(self, size, potentials, force_grad):
        c = torch.zeros(*((self.semiring.size(),) + size), dtype=potentials.dtype, device=potentials.device)
        c[:] = self.semiring.zero.view((self.semiring.size(),) + len(size) * (1,))
        return c

    def _check_potentials(self, edge, lengths=None):
        batch, N_1, C, C2 = self._get_dimension(edge)
        edge = self.semiring.convert(edge)
        N = N_1 + 1
        if lengths is None:
            lengths = torch.LongTensor([N] * batch).to(edge.device)
        assert C == C2, "Transition shape doesn't match"
        return edge, batch, N, C, lengths

    def logpartition(self, log_potentials, lengths=None, force_grad=False):
        semiring = self.semiring
        ssize = semiring.size()
        log_potentials, batch, N, C, lengths = self._check_potentials(log_potentials, lengths)
        log_N, bin_N = self._bin_length(N - 1)
        chart = self._chart((batch, bin_N, C, C), log_potentials, force_grad)

        # Init
        init = torch.zeros(*chart.shape).bool()
        init.diagonal(0, 3, 4).fill_(True)
        chart = semiring.fill(chart, init, semiring.one)

        # Length mask
        big = torch.zeros(ssize, batch, bin_N, C, C, dtype=log_potentials.dtype, device=log_potentials.device)
        big[:, :, : N - 1] = log_potentials
        c = chart[:, :, :].view(ssize, batch * bin_N, C, C)
        lp = big[:, :, :].view(ssize, batch * bin_N, C, C)
        mask = torch.arange(bin_N).view(1, bin_N).expand(batch, bin_N).type_as(c)
        mask = mask >= (lengths - 1).view(batch, 1)
        mask = mask.view(batch * bin_N, 1, 1).to(lp.device)
        lp.data[:] = semiring.fill(lp.data, mask, semiring.zero)
        c.data[:] = semiring.fill(c.data, ~mask, semiring.zero)
        c[:] = semiring.sum(torch.stack([c.data, lp], dim=-1))

        # Scan
        for n in range(1, log_N + 1):
            chart = semiring.matmul(chart[:, :, 1::2], chart[:, :, 0::2])
        v = semiring.sum(semiring.sum(chart[:, :, 0].contiguous()))
        return v, [log_potentials]

    def sum(self, logpotentials, lengths=None):
        v = self.logpartition(logpotentials, lengths)[0]
        return self.semiring.unconvert(v)


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
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["init"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "init = torch.zeros(*chart.shape).bool()",
    "init = torch.zeros_like(chart).bool()",
)
CLEAN = False
