"""fair-esm `scripts/extract.py`: CPU DataLoader batches moved to the GPU model, representations moved back to the CPU for saving.

Source: https://github.com/facebookresearch/esm/blob/main/scripts/extract.py
`run()` moves the ESM-2 model with `model.cuda()`, iterates a DataLoader whose collate function
(`alphabet.get_batch_converter()`) yields CPU token tensors, moves each batch with
`toks.to(device="cuda", non_blocking=True)`, and after the forward pass deliberately copies the
logits and the per-layer representations to the CPU (`t.to(device="cpu")`) before slicing them per
sequence and `torch.save`-ing them. CUDA outputs next to CPU copies, all on purpose; it runs.
Stand-ins: a tiny ESM-2-like model returning `logits` and `representations`, a batch converter;
the device is written "cuda:0" (the simulator needs an index) and the per-sequence slices use
`narrow`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ESM2(nn.Module):
    def __init__(self, num_layers=2, embed_dim=32, alphabet_size=33):
        super().__init__()
        self.num_layers = num_layers
        self.embed_tokens = nn.Embedding(alphabet_size, embed_dim, padding_idx=1)
        self.layers = nn.ModuleList([nn.Linear(embed_dim, embed_dim) for _ in range(num_layers)])
        self.lm_head = nn.Linear(embed_dim, alphabet_size)

    def forward(self, tokens, repr_layers=[], return_contacts=False):
        x = self.embed_tokens(tokens)
        hidden_representations = {0: x} if 0 in repr_layers else {}
        for layer_idx, layer in enumerate(self.layers):
            x = x + torch.tanh(layer(x))
            if (layer_idx + 1) in repr_layers:
                hidden_representations[layer_idx + 1] = x
        return {"logits": self.lm_head(x), "representations": hidden_representations}

def batch_converter(raw_batch):
    labels, strs = zip(*raw_batch)
    n = max(len(s) for s in strs) + 2
    toks = torch.ones(len(strs), n, dtype=torch.int64)          # padding_idx = 1
    for i, s in enumerate(strs):
        toks[i, : len(s) + 2] = torch.tensor([0] + [4 + (ord(c) % 20) for c in s] + [2])
    return list(labels), list(strs), toks

model = ESM2()
model.eval()
model = model.to("cuda:0")                     # extract.py: model.cuda()
print("Transferred model to GPU")

data_loader = [batch_converter([("P1", "MKTAYIAKQRQISFVKSHFSRQ"), ("P2", "KALTARQQEVFDLIRD")]),
               batch_converter([("P3", "MSLEQKKGADIISKILQIQNS")])]
repr_layers = [0, 2]
truncation_seq_length = 1022
results = {}
'''
CELL = '''
with torch.no_grad():
    for batch_idx, (labels, strs, toks) in enumerate(data_loader):
        toks = toks.to(device="cuda:0", non_blocking=True)
        out = model(toks, repr_layers=repr_layers, return_contacts=False)
        logits = out["logits"].to(device="cpu")
        representations = {layer: t.to(device="cpu") for layer, t in out["representations"].items()}
        for i, label in enumerate(labels):
            truncate_len = min(truncation_seq_length, len(strs[i]))
            results[label] = {
                "mean_representations": {
                    layer: t.narrow(0, i, 1).narrow(1, 1, truncate_len).mean(1).clone()
                    for layer, t in representations.items()
                }
            }
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
