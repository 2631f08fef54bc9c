"""ESPnet's RNN encoder packs the device batch with `ilens.cpu()`: CPU lengths next to an accelerator batch, on purpose.

Source: https://github.com/espnet/espnet/blob/master/espnet/nets/pytorch_backend/rnn/encoders.py
`RNN.forward` turns a list of lengths into a tensor and calls
`pack_padded_sequence(xs_pad, ilens.cpu(), batch_first=True)`, as `pack_padded_sequence` requires its
lengths on the CPU while `xs_pad` and the LSTM live on the device; `pad_packed_sequence` then returns
CPU lengths again. Look-alike: a device batch and a device LSTM meeting a CPU int64 `ilens`.
Simulated with meta as the accelerator; the encoder is a reduced stand-in of ESPnet's `RNN`
(one BLSTM layer and the `l_last` projection).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

class RNN(torch.nn.Module):
    """stand-in of espnet.nets.pytorch_backend.rnn.encoders.RNN (blstm)"""
    def __init__(self, idim, elayers, cdim, hdim, dropout, typ="blstm"):
        super().__init__()
        bidir = typ[0] == "b"
        self.nbrnn = torch.nn.LSTM(idim, cdim, elayers, batch_first=True, dropout=dropout, bidirectional=bidir)
        if bidir:
            self.l_last = torch.nn.Linear(cdim * 2, hdim)
        else:
            self.l_last = torch.nn.Linear(cdim, hdim)
        self.typ = typ

    def forward(self, xs_pad, ilens, prev_state=None):
        if not isinstance(ilens, torch.Tensor):
            ilens = torch.tensor(ilens)
        xs_pack = pack_padded_sequence(xs_pad, ilens.cpu(), batch_first=True)
        if self.training:
            self.nbrnn.flatten_parameters()
        ys, states = self.nbrnn(xs_pack, hx=prev_state)
        # ys: utt list of frame x cdim x 2 (2: means bidirectional)
        ys_pad, ilens = pad_packed_sequence(ys, batch_first=True)
        # (sum _utt frame_utt) x dim
        projected = torch.tanh(self.l_last(ys_pad.contiguous().view(-1, ys_pad.size(2))))
        xs_pad = projected.view(ys_pad.size(0), ys_pad.size(1), -1)
        return xs_pad, ilens, states  # x: utt list of frame x dim

device = torch.device("meta")        # the GPU in a real run
enc = RNN(idim=40, elayers=1, cdim=32, hdim=32, dropout=0.0).to(device)
enc.eval()
xs_pad = torch.randn(3, 20, 40).to(device)      # fbank batch, sorted by length
ilens = [20, 17, 9]                              # lengths as the data loader gives them
'''
CELL = '''
with torch.no_grad():
    hs_pad, hlens, _ = enc(xs_pad, ilens)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
