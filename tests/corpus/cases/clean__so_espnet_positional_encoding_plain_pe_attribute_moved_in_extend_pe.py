"""ESPnet PositionalEncoding: `self.pe` is a plain attribute, moved to the input's device in extend_pe.

Source: https://github.com/espnet/espnet/pull/1060
"Allow to extend the length of positional encoding at inference": the PR stops registering `pe` as
a buffer (so `max_len` can differ from training) and keeps it as `self.pe`; `extend_pe(x)`, called
at the start of every forward, rebuilds it when too short and otherwise casts it with
`self.pe.to(dtype=x.dtype, device=x.device)` when the dtype or device differ. Look-alike: after
`model.to("cuda:0")` the attribute is still a CPU tensor (Module.to() does not see it) until the
first forward moves it. Stand-in: the class as in ESPnet with a linear input layer in front.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch

class PositionalEncoding(torch.nn.Module):
    def __init__(self, d_model, dropout_rate, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.d_model = d_model
        self.xscale = math.sqrt(self.d_model)
        self.dropout = torch.nn.Dropout(p=dropout_rate)
        self.pe = None
        self.extend_pe(torch.tensor(0.0).expand(1, max_len))

    def extend_pe(self, x):
        if self.pe is not None:
            if self.pe.size(1) >= x.size(1):
                if self.pe.dtype != x.dtype or self.pe.device != x.device:
                    self.pe = self.pe.to(dtype=x.dtype, device=x.device)
                return
        pe = torch.zeros(x.size(1), self.d_model)
        position = torch.arange(0, x.size(1), dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, self.d_model, 2, dtype=torch.float32)
                             * -(math.log(10000.0) / self.d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0)
        self.pe = pe.to(device=x.device, dtype=x.dtype)

    def forward(self, x):
        self.extend_pe(x)
        x = x * self.xscale + self.pe[:, :x.size(1)]
        return self.dropout(x)

class Conv2dSubsamplingLike(torch.nn.Module):
    def __init__(self, idim, odim, dropout_rate):
        super(Conv2dSubsamplingLike, self).__init__()
        self.out = torch.nn.Sequential(torch.nn.Linear(idim, odim),
                                       PositionalEncoding(odim, dropout_rate, max_len=512))
    def forward(self, x):
        return self.out(x)

embed = Conv2dSubsamplingLike(idim=80, odim=64, dropout_rate=0.1).to("cuda:0")
feats = torch.randn(2, 100, 80, device="cuda:0")
'''
CELL = '''
xs = embed(feats)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
