"""fastai 0.7 `StructuredLearner.summary()`: the summary feeds `torch.rand` floats into the categorical embeddings of the MixedInputModel.

Source: https://github.com/fastai/fastai/issues/529
Calling `m.summary()` on the StructuredLearner of a tabular (Rossmann-style) model failed inside
`model_summary`: "summary method does not work for models with embedding layers". `summary()` passes
only the input sizes, `[(cats.shape[1],), (conts.shape[1],)]`, and `model_summary` builds a
`torch.rand(3, *size)` input for each, so the categorical codes reach `nn.Embedding` as floats. The
fix (PR #532, by the reporter) lets `summary()` pass example tensors, with the categorical input a
LongTensor (`torch.ones(3, n_cat, dtype=torch.int64)`).
Stand-in: fastai 0.7's MixedInputModel (column_data.py) reduced to embeddings + one hidden layer,
`model_summary` (model.py) reduced to the forward hooks that record output shapes (it takes example
tensors as given, as after the fix), and StructuredLearner reduced to `model` and `summary()`.
CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from collections import OrderedDict
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class MixedInputModel(nn.Module):
    def __init__(self, emb_szs, n_cont, emb_drop, out_sz, szs, drops):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, s) for c, s in emb_szs])
        n_emb = sum(e.embedding_dim for e in self.embs)
        self.n_emb, self.n_cont = n_emb, n_cont
        self.emb_drop = nn.Dropout(emb_drop)
        self.bn = nn.BatchNorm1d(n_cont)
        szs = [n_emb + n_cont] + szs
        self.lins = nn.ModuleList([nn.Linear(szs[i], szs[i + 1]) for i in range(len(szs) - 1)])
        self.drops = nn.ModuleList([nn.Dropout(d) for d in drops])
        self.outp = nn.Linear(szs[-1], out_sz)

    def forward(self, x_cat, x_cont):
        x = [e(x_cat[:, i]) for i, e in enumerate(self.embs)]
        x = self.emb_drop(torch.cat(x, 1))
        x = torch.cat([x, self.bn(x_cont)], 1)
        for l, d in zip(self.lins, self.drops):
            x = d(F.relu(l(x)))
        return self.outp(x)

def model_summary(m, input_size):
    def register_hook(module):
        def hook(module, input, output):
            class_name = str(module.__class__).split(".")[-1].split("'")[0]
            key = f"{class_name}-{len(summary) + 1}"
            summary[key] = OrderedDict(output_shape=list(output.size()))
        if not isinstance(module, (nn.Sequential, nn.ModuleList)) and module is not m:
            hooks.append(module.register_forward_hook(hook))

    summary, hooks = OrderedDict(), []
    m.apply(register_hook)
    x = [torch.rand(3, *in_size) if isinstance(in_size, tuple) else in_size for in_size in input_size]
    m.eval()
    with torch.no_grad():
        m(*x)
    for h in hooks:
        h.remove()
    return summary

class StructuredLearner:
    """Stand-in for fastai.column_data.StructuredLearner."""
    def __init__(self, model, cats, conts):
        self.model = model
        self.cats, self.conts = cats, conts

    def summary(self):
        return model_summary(self.model, [(self.cats.shape[1],), (self.conts.shape[1],)])

rng = np.random.default_rng(0)
cat_sz = [("Store", 1116), ("DayOfWeek", 8), ("Year", 4), ("Month", 13), ("StateHoliday", 3)]
emb_szs = [(c, min(50, (c + 1) // 2)) for _, c in cat_sz]
cats = np.stack([rng.integers(0, c, 256) for _, c in cat_sz], 1)
conts = rng.standard_normal((256, 16)).astype(np.float32)
m = StructuredLearner(MixedInputModel(emb_szs, n_cont=16, emb_drop=0.04, out_sz=1,
                                      szs=[1000, 500], drops=[0.001, 0.01]), cats, conts)
'''
CELL = '''
m.summary()
'''
EXPECT_ERROR = "'indices' to have one of the following scalar types: Long, Int"
CULPRITS = ["m"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return model_summary(self.model, [(self.cats.shape[1],), (self.conts.shape[1],)])",
                  "return model_summary(self.model, [torch.ones(3, self.cats.shape[1], dtype=torch.int64), torch.rand(3, self.conts.shape[1])])")
CLEAN = False
