"""Look-alike: fastai's AWD_LSTM keeps its states in a plain list, and the Learner's ModelResetter rebuilds them on the GPU.

Source: https://github.com/fastai/fastai/blob/master/fastai/text/models/awdlstm.py
AWD_LSTM stores `self.hidden` as a Python list of tensors that `Module.to()` never moves; `reset()`
recreates them with `one_param(self).new_zeros(...)`, i.e. on the device of the parameters. fastai's
text learners carry the `ModelResetter` callback, which calls `learn.model.reset()` before training
and before validation, so after `Learner` moved the model to the GPU the states are rebuilt there
before the first forward. Stand-in: AWD_LSTM without the dropout wrappers (as in the bug case from
fastai#3158) and a Learner running ModelResetter around validation.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

class ModelResetter:
    "`Callback` that resets the model at each validation/training step"
    def before_train(self, learn):
        learn.model.reset()

    def before_validate(self, learn):
        learn.model.reset()

class Learner:
    def __init__(self, device, model, cbs=()):
        self.device = device
        self.model = model.to(device)
        self.cbs = list(cbs)

    def _run_cbs(self, event):
        for cb in self.cbs:
            getattr(cb, event, lambda learn: None)(self)

    def validate(self, batches):
        self._run_cbs("before_validate")
        with torch.no_grad():
            return [self.model(xb) for xb in batches]

learn = Learner("cuda:0", AWD_LSTM(vocab_sz=100, emb_sz=40, n_hid=64, n_layers=3), cbs=[ModelResetter()])
batches = [torch.randint(0, 100, (8, 12)).to(learn.device) for _ in range(2)]
'''
CELL = '''
preds = learn.validate(batches)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
