"""Walk with fastai tabular AutoEncoder: encoding a `test_dl` with the model on the GPU and the batches on the CPU.

Source: https://github.com/walkwithfastai/walkwithfastai.github.io/issues/45
In the `03_tab.ae` notebook ("Getting the compressed representations") the user looped over
`dl = learn.dls.test_dl(df)` and called `learn.model(*batch[:2], encode=True)` after the model had been
trained (and moved) to the GPU; the forward failed with a device mismatch because the `test_dl`
batches (`x_cat`, `x_cont`) come out on the CPU. The fix merged in PR #48 runs the encoding with the
model on the CPU (`learn.model.cuda()` became `learn.model.cpu()`).
`.numpy()` on the output is left out (the simulated tensors cannot give one).
Stand-ins: fastai's `TabularModel` (embeddings, `bn_cont`, `LinBnDrop` layers) subclassed as the
notebook's `TabularAE` with `BatchSwapNoise`, a `Learner` holding it, and `test_dl` batches built on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn

class BatchSwapNoise(nn.Module):
    "Swap Noise Module"
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        if self.training:
            mask = torch.rand(x.size()) > (1 - self.p)
            l1 = torch.floor(torch.rand(x.size()) * x.size(0)).type(torch.LongTensor)
            l2 = (mask.type(torch.LongTensor) * x.size(1))
            res = (l1 * l2).view(-1)
            idx = torch.arange(x.nelement()) + res
            idx[idx >= x.nelement()] = idx[idx >= x.nelement()] - x.nelement()
            return x.flatten()[idx].view(x.size())
        return x

class SigmoidRange(nn.Module):
    def __init__(self, low, high):
        super().__init__()
        self.low, self.high = low, high

    def forward(self, x):
        return torch.sigmoid(x) * (self.high - self.low) + self.low

class TabularModel(nn.Module):
    "fastai.tabular.model.TabularModel (stand-in)"
    def __init__(self, emb_szs, n_cont, out_sz, layers):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(ni, nf) for ni, nf in emb_szs])
        self.emb_drop = nn.Dropout(0.01)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        n_emb = sum(e.embedding_dim for e in self.embeds)
        self.n_emb, self.n_cont = n_emb, n_cont
        sizes = [n_emb + n_cont] + layers + [out_sz]
        self.layers = nn.Sequential(*[nn.Sequential(nn.Linear(sizes[i], sizes[i + 1]), nn.ReLU())
                                      for i in range(len(sizes) - 1)])

    def forward(self, x_cat, x_cont=None):
        x = [e(x_cat[:, i]) for i, e in enumerate(self.embeds)]
        x = self.emb_drop(torch.cat(x, 1))
        x_cont = self.bn_cont(x_cont)
        x = torch.cat([x, x_cont], 1)
        return self.layers(x)

class TabularAE(TabularModel):
    "A simple AutoEncoder model"
    def __init__(self, emb_szs, n_cont, hidden_size, cats, low, high, bswap=None):
        super().__init__(emb_szs, n_cont, out_sz=hidden_size, layers=[64, 32])
        self.bswap = bswap
        self.cats = cats
        self.activation_cats = sum([v for k, v in cats.items()])
        if bswap is not None:
            self.noise = BatchSwapNoise(bswap)
        self.decoder = nn.Sequential(nn.Linear(hidden_size, 32), nn.ReLU(), nn.Linear(32, 64), nn.ReLU())
        self.decoder_cont = nn.Sequential(nn.Linear(64, n_cont), SigmoidRange(low=low, high=high))
        self.decoder_cat = nn.Linear(64, self.activation_cats)

    def forward(self, x_cat, x_cont=None, encode=False):
        if self.bswap is not None:
            x_cat = self.noise(x_cat)
            x_cont = self.noise(x_cont)
        encoded = super().forward(x_cat, x_cont)
        if encode:
            return encoded
        decoded_trunk = self.decoder(encoded)
        return self.decoder_cat(decoded_trunk), self.decoder_cont(decoded_trunk)

class Learner:
    def __init__(self, dls, model, loss_func=None, wd=None):
        self.dls, self.model, self.loss_func, self.wd = dls, model, loss_func, wd

total_cats = {'workclass': 10, 'education': 17, 'marital-status': 8}
emb_szs = [(10, 6), (17, 8), (8, 5)]
cont_names = ['age', 'fnlwgt', 'education-num']
low = np.full((1, 3), -2.0, dtype=np.float32)
high = np.full((1, 3), 3.0, dtype=np.float32)
model = TabularAE(emb_szs, len(cont_names), 16, cats=total_cats, bswap=.1,
                  low=torch.tensor(low, device="cuda:0"), high=torch.tensor(high, device="cuda:0"))
learn = Learner(None, model, wd=0.01)
learn.model.to("cuda:0")          # learn.fit_flat_cos(...) trained it on the GPU

# dl = learn.dls.test_dl(df): its batches (x_cat, x_cont, y_cat, y_cont) come out on the CPU
g = torch.Generator().manual_seed(0)
dl = []
for _ in range(3):
    x_cat = torch.stack([torch.randint(0, n, (32,), generator=g) for n in (10, 17, 8)], 1)
    x_cont = torch.randn(32, 3, generator=g)
    dl.append((x_cat, x_cont, x_cat, x_cont))
'''
CELL = '''
outs = []
for batch in dl:
    with torch.no_grad():
        learn.model.eval()
        out = learn.model(*batch[:2], encode=True).cpu()   # the notebook adds .numpy()
        outs.append(out)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["learn.model"]
FIX = "namespace"
REFERENCE_FIX = '''
learn.model.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
