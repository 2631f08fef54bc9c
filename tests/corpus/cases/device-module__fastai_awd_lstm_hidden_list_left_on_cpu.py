"""fastai AWD_LSTM called directly after the Learner moved it to the GPU: its `self.hidden` list stays on the CPU.

Source: https://github.com/fastai/fastai/issues/3158
"Runtime Error using AWD-LSTM ... on GPU": `learn.model(x).shape` on a text Learner fails in
`output, new_h = rnn(output, self.hidden[l])` with "Input and hidden tensors are not at the same
device". AWD_LSTM keeps its states in a plain list `self.hidden`, made by `reset()` in `__init__`
(`one_param(self).new_zeros(...)`, the CPU then); `Module.to()` never sees a list attribute, and
`_change_hidden` grows the CPU states for the new batch size. Stand-in: AWD_LSTM without the
dropout wrappers, and a Learner that moves the model to the DataLoaders' device.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def one_param(m):
    return next(iter(m.parameters()))

class AWD_LSTM(nn.Module):
    def __init__(self, vocab_sz, emb_sz, n_hid, n_layers, pad_token=1, bidir=False):
        super().__init__()
        self.emb_sz, self.n_hid, self.n_layers, self.pad_token = emb_sz, n_hid, n_layers, pad_token
        self.bs = 1
        self.n_dir = 2 if bidir else 1
        self.encoder = nn.Embedding(vocab_sz, emb_sz, padding_idx=pad_token)
        self.rnns = nn.ModuleList([
            nn.LSTM(emb_sz if l == 0 else n_hid, (n_hid if l != n_layers - 1 else emb_sz) // self.n_dir,
                    1, batch_first=True, bidirectional=bidir)
            for l in range(n_layers)])
        self.reset()

    def forward(self, inp, from_embeds=False):
        bs, sl = inp.shape[:2] if from_embeds else inp.shape
        if bs != self.bs:
            self._change_hidden(bs)
        output = inp if from_embeds else self.encoder(inp)
        new_hidden = []
        for l, rnn in enumerate(self.rnns):
            output, new_h = rnn(output, self.hidden[l])
            new_hidden.append(new_h)
        self.hidden = [tuple(h.detach() for h in hs) for hs in new_hidden]
        return output

    def _change_hidden(self, bs):
        self.hidden = [self._change_one_hidden(l, bs) for l in range(self.n_layers)]
        self.bs = bs

    def _one_hidden(self, l):
        nh = (self.n_hid if l != self.n_layers - 1 else self.emb_sz) // self.n_dir
        return (one_param(self).new_zeros(self.n_dir, self.bs, nh), one_param(self).new_zeros(self.n_dir, self.bs, nh))

    def _change_one_hidden(self, l, bs):
        if self.bs < bs:
            nh = (self.n_hid if l != self.n_layers - 1 else self.emb_sz) // self.n_dir
            return tuple(torch.cat([h, h.new_zeros(self.n_dir, bs - self.bs, nh)], dim=1) for h in self.hidden[l])
        if self.bs > bs:
            return (self.hidden[l][0][:, :bs].contiguous(), self.hidden[l][1][:, :bs].contiguous())
        return self.hidden[l]

    def reset(self):
        self.hidden = [self._one_hidden(l) for l in range(self.n_layers)]

class Learner:
    def __init__(self, device, model):
        self.device = device
        self.model = model.to(device)

learn = Learner("cuda:0", AWD_LSTM(vocab_sz=100, emb_sz=40, n_hid=64, n_layers=3))
x = torch.randint(0, 100, (8, 12)).to(learn.device)
'''
CELL = '''
learn.model(x).shape
'''
EXPECT_ERROR = ("Input and hidden tensors are not at the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["learn.model.hidden"]
FIX = "namespace"
REFERENCE_FIX = '''
learn.model.reset()
'''
REFERENCE_EDIT = None
CLEAN = False
