"""OpenKiwi (MT quality estimation) on a GPU: `Model.get_mask` builds a fresh CPU mask and does `mask &= input_tensor != pad_id` with CUDA tokens.

Source: https://github.com/Unbabel/OpenKiwi/pull/44
"Fix device assignment for pytorch compatibility solving #43": training/predicting on the GPU with a
newer PyTorch crashed "from making the `mask &= (..)` operation with a (just created) cpu tensor":
the token mask for padding/start/stop ids was created without the batch's device and then updated
in place with comparisons of the CUDA token tensor. The PR creates the mask on the input's device
(`torch.ones_like`). Stand-in: `Model.get_mask` and a QUETCH-like word-level tagger with its masked
loss; the vocab as a dict; the mask constructor written as `torch.ones(shape, dtype=uint8)`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
import torch
import torch.nn.functional as F
from torch import nn

PAD, START, STOP, UNK = "<pad>", "<start>", "<stop>", "<unk>"
TARGET, TARGET_TAGS = "target", "tags"

class Vocab:
    def __init__(self, words):
        self.stoi = {w: i for i, w in enumerate([UNK, PAD, START, STOP] + words)}

class QUETCH(nn.Module):
    def __init__(self, vocabs, emb_dim=16, hidden=32, nb_classes=2):
        super().__init__()
        self.vocabs = vocabs
        self.embeddings = nn.Embedding(len(vocabs[TARGET].stoi), emb_dim)
        self.linear = nn.Sequential(nn.Linear(emb_dim, hidden), nn.Tanh(), nn.Linear(hidden, nb_classes))

    def forward(self, batch):
        target, lengths = getattr(batch, TARGET)
        return {TARGET_TAGS: self.linear(self.embeddings(target))}

    def get_mask(self, batch, output):
        side = output
        input_tensor = getattr(batch, side)
        if isinstance(input_tensor, tuple) and len(input_tensor) == 2:
            input_tensor, lengths = input_tensor
        mask = torch.ones(input_tensor.shape, dtype=torch.uint8)
        possible_padding = [PAD, START, STOP]
        unk_id = self.vocabs[side].stoi.get(UNK)
        for pad in possible_padding:
            pad_id = self.vocabs[side].stoi.get(pad)
            if pad_id is not None and pad_id != unk_id:
                mask &= input_tensor != pad_id
        return mask

    def loss(self, model_out, batch):
        logits = model_out[TARGET_TAGS]
        mask = self.get_mask(batch, TARGET).float()
        nll = F.cross_entropy(logits.flatten(0, 1), getattr(batch, TARGET_TAGS).flatten(), reduction="none")
        return (nll * mask.flatten()).sum() / mask.sum()

vocabs = {TARGET: Vocab("the house is small and green".split())}
device = torch.device("cuda:0")
model = QUETCH(vocabs).to(device).eval()
tokens = torch.tensor([[2, 4, 5, 6, 7, 3, 1], [2, 4, 9, 3, 1, 1, 1]])      # <start> ... <stop> <pad>
batch = types.SimpleNamespace(**{TARGET: (tokens.to(device), torch.tensor([7, 5]).to(device)),
                                 TARGET_TAGS: torch.randint(0, 2, (2, 7)).to(device)})
'''
CELL = '''
with torch.no_grad():
    model_out = model(batch)
    loss = model.loss(model_out, batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mask = torch.ones(input_tensor.shape, dtype=torch.uint8)",
                  "mask = torch.ones_like(input_tensor, dtype=torch.uint8)")
CLEAN = False
