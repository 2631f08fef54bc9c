"""PyTorch/XLA port of an MNIST-style loop: the custom loader's tuple of LongTensors is still on the CPU.

Source: https://github.com/pytorch/xla/issues/899
Porting a model to TPU following the MNIST example, the user's `train_loop_fn` iterated their own
`torch.utils.data.DataLoader` yielding a tuple of three LongTensors and one FloatTensor and called
`model(a, b, c, d)`, which raised "Input tensor is not an XLA tensor: torch.LongTensor" (XLA's form of
the device mismatch). The maintainers' answer: this happens when the model is on the TPU and the
tensors are still on the CPU; print each tensor's device, and feed batches through XLA's
per-device loader (which moves them) or `.to(device)` them. Stand-in: a small ranking model taking
query ids, doc ids, segment ids and a float mask; cuda:0 stands in for the XLA device.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, vocab=1000, dim=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.seg = nn.Embedding(2, dim)
        self.score = nn.Linear(dim, 1)

    def forward(self, query_tok, doc_tok, seg_ids, mask):
        toks = torch.cat([query_tok, doc_tok], dim=1)
        h = self.tok(toks) + self.seg(seg_ids)
        h = (h * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        return self.score(h).squeeze(-1)

device = torch.device("cuda:0")      # xm.xla_device()
model = Model().to(device)
batch = (torch.randint(0, 1000, (4, 8)), torch.randint(0, 1000, (4, 24)),
         torch.randint(0, 2, (4, 32)), torch.ones(4, 32))
'''
CELL = '''
model.train()
a, b, c, d = batch
scores = model(a, b, c, d)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = tuple(t.to(device) for t in batch)
'''
REFERENCE_EDIT = None
CLEAN = False
