"""ProtFlash inside a PyTorch Lightning protein-function model on a GPU: `batchConverter` output stays on the CPU.

Source: https://github.com/ISYSLAB-HUST/ProtFlash/issues/2
The user embedded ProtFlash in a LightningModule that predicts protein functions; on CUDA it failed with
"Expected all tensors to be on the same device ... cuda:0 and cpu!". The maintainer: "the pytorch
lighting framework does not place the batch_token processed by the batchConverter function on the
GPU, you need to implement it manually: `batch_token = batch_token.to(self.device)`". Lightning only
moves the collated batch (here a list of (id, sequence) strings); the tokens are made inside the step.
Stand-in: `batchConverter`, a one-block FLASH-like encoder (token embedding masked by padding, a
gated MLP), the LightningModule reduced to `forward` with its `device` property; mean pooling as in the
ProtFlash README.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

ALPHABET = "ACDEFGHIKLMNPQRSTVWY"

def batchConverter(raw_batch):
    ids = [i for i, _ in raw_batch]
    seqs = [s for _, s in raw_batch]
    lengths = torch.tensor([len(s) for s in seqs])
    batch_token = torch.zeros(len(seqs), max(len(s) for s in seqs), dtype=torch.long)
    for i, s in enumerate(seqs):
        batch_token[i, :len(s)] = torch.tensor([ALPHABET.index(c) + 1 for c in s])
    return ids, batch_token, lengths

class FLASHTransformer(nn.Module):
    def __init__(self, dim=32, num_tokens=len(ALPHABET) + 1):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim, padding_idx=0)
        self.to_hidden = nn.Linear(dim, 2 * dim)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, tokens, lengths):
        x = self.token_emb(tokens) * (tokens != 0).unsqueeze(-1)
        v, gate = self.to_hidden(x).chunk(2, dim=-1)
        return self.to_out(v * torch.sigmoid(gate))

class ProteinFunctionModel(nn.Module):            # pl.LightningModule
    def __init__(self, num_labels=10):
        super().__init__()
        self.flash_model = FLASHTransformer()       # load_prot_flash_base()
        self.classifier = nn.Linear(32, num_labels)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, data):
        ids, batch_token, lengths = batchConverter(data)
        token_embedding = self.flash_model(batch_token, lengths)
        pooled = torch.stack([token_embedding[i, 0: len(seq) + 1].mean(0)
                              for i, (_, seq) in enumerate(data)])
        return self.classifier(pooled)

model = ProteinFunctionModel()
model = model.to("cuda:0")                        # what the Lightning Trainer does with accelerator="gpu"
data = [("protein1", "MKTVRQERLKSIVRILERSKEPVSGAQ"), ("protein2", "KALTARQQEVFDLIRDHISQTGMPPTRA")]
'''
CELL = '''
with torch.no_grad():
    logits = model(data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch_token"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        token_embedding = self.flash_model(batch_token, lengths)",
    "        batch_token = batch_token.to(self.device)\n        token_embedding = self.flash_model(batch_token, lengths)",
)
CLEAN = False
