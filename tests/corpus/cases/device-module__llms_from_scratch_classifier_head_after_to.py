"""Fine-tuning GPT for classification: the new `out_head` is created after `model.to(device)`, on the CPU.

Source: https://github.com/rasbt/LLMs-from-scratch/issues/172
Running the chapter 6 code from a script, `calc_loss_batch` -> `model(input_batch)` failed with
"Expected all tensors to be on the same device" in the model's forward, at its output layer. The
chapter replaces the output layer with `model.out_head = torch.nn.Linear(in_features=...,
out_features=num_classes)`, a new layer made on the CPU, and moves the model only afterwards; a
script that moves the pretrained GPT first (as here) leaves the new head behind. Stand-in: a small
GPTModel (its transformer blocks reduced to feed-forward blocks) and the chapter's
`calc_loss_batch` (last-token logits taken with `narrow(...).sum(1)` instead of `[:, -1, :]`: the
simulator cannot index or copy fake cuda tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        self.trf_blocks = nn.Sequential(*[nn.Sequential(nn.LayerNorm(cfg["emb_dim"]),
                                                        nn.Linear(cfg["emb_dim"], 4 * cfg["emb_dim"]), nn.GELU(),
                                                        nn.Linear(4 * cfg["emb_dim"], cfg["emb_dim"]))
                                          for _ in range(cfg["n_layers"])])
        self.final_norm = nn.LayerNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

    def forward(self, in_idx):
        batch_size, seq_len = in_idx.shape
        x = self.tok_emb(in_idx) + self.pos_emb(torch.arange(seq_len, device=in_idx.device))
        x = self.final_norm(self.trf_blocks(x))
        logits = self.out_head(x)
        return logits

def calc_loss_batch(input_batch, target_batch, model, device):
    input_batch, target_batch = input_batch.to(device), target_batch.to(device)
    logits = model(input_batch).narrow(1, -1, 1).sum(dim=1)  # Logits of last output token, [:, -1, :]
    return torch.nn.functional.cross_entropy(logits, target_batch)

BASE_CONFIG = {"vocab_size": 500, "context_length": 32, "emb_dim": 64, "n_heads": 4, "n_layers": 2}
device = torch.device("cuda:0")
model = GPTModel(BASE_CONFIG)
model.to(device)
for param in model.parameters():
    param.requires_grad = False
num_classes = 2
model.out_head = torch.nn.Linear(in_features=BASE_CONFIG["emb_dim"], out_features=num_classes)
input_batch = torch.randint(0, 500, (8, 20))
target_batch = torch.randint(0, 2, (8,))
'''
CELL = '''
loss = calc_loss_batch(input_batch, target_batch, model, device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.out_head"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
