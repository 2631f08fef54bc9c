"""Look-alike: ESM `extract.py` runs the model on the GPU and copies per-layer representations back to the CPU.

Source: https://github.com/facebookresearch/esm/issues/8
Asked how to run the quick-start on a GPU, the maintainers pointed to `extract.py`: the model is
moved with `model.cuda()`, each batch with `toks = toks.to(device="cuda", non_blocking=True)`, and the
outputs are copied back, `representations = {layer: t.to(device="cpu") for layer, t in
results["representations"].items()}`, then sliced per sequence with CPU lengths and mean-pooled for
saving. Stand-in: a tiny embedding + transformer-layer model returning the same `results` dict.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ProteinBertModel(nn.Module):
    def __init__(self, vocab=33, dim=32, num_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim, padding_idx=1)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(num_layers)])

    def forward(self, tokens, repr_layers=()):
        x = self.embed_tokens(tokens)
        hidden = {0: x}
        for i, layer in enumerate(self.layers):
            x = torch.tanh(layer(x))
            hidden[i + 1] = x
        return {"logits": x, "representations": {l: hidden[l] for l in repr_layers}}

model = ProteinBertModel()
model.eval()
model = model.to("cuda:0")                           # model.cuda() in extract.py

batch_strs = ["MYLYQKIKN", "MNAKYD"]
toks = torch.full((2, 11), 1, dtype=torch.long)
toks[0, :11] = torch.randint(4, 30, (11,))
toks[1, :8] = torch.randint(4, 30, (8,))
repr_layers = [0, 2]
truncation_seq_length = 1022
'''
CELL = '''
with torch.no_grad():
    toks = toks.to(device="cuda:0", non_blocking=True)
    out = model(toks, repr_layers=repr_layers)
    representations = {layer: t.to(device="cpu") for layer, t in out["representations"].items()}
    mean_representations = {}
    for i, seq in enumerate(batch_strs):
        truncate_len = min(truncation_seq_length, len(seq))
        mean_representations[i] = {layer: t[i, 1 : truncate_len + 1].mean(0).clone()
                                   for layer, t in representations.items()}
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
