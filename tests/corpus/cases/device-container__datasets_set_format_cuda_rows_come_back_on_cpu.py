"""`set_format(type="torch", device="cuda")` in datasets 4.5 returns CPU tensors; the rows go straight into a CUDA model.

Source: https://github.com/huggingface/datasets/issues/7958
"[CUDA Tensors Not working in ~v4.5.0] set_format(type='torch', device='cuda') returns cpu": the user
formatted the dataset with `ds.set_format(type="torch", columns=["input", "labels"], device="cuda")`
and relied on it, but in 4.5.0 `ds["train"][0]["input"].device` is `cpu` (it was `cuda:0` with
4.0.0; related to huggingface/datasets#1762). The batch dict therefore holds CPU tensors while the
model is on the GPU. Stand-in: a formatted dataset whose `__getitem__` builds the torch tensors
and, as in 4.5.0, drops the `device` option.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class FormattedDataset:
    """datasets.Dataset after set_format("torch", columns=..., device=...) (4.5.0 behaviour)."""
    def __init__(self, table):
        self._table, self._format = table, {}

    def set_format(self, type=None, columns=None, device=None):
        self._format = {"type": type, "columns": columns, "device": device}

    def __getitem__(self, key):
        cols = self._format["columns"] or list(self._table)
        return {c: torch.tensor(np.asarray(self._table[c][key])) for c in cols}   # device dropped

table = {"input": np.random.rand(64, 12).astype(np.float32),
         "labels": np.random.randint(0, 3, size=64)}
ds = {"train": FormattedDataset(table)}
ds["train"].set_format(type="torch", columns=["input", "labels"], device="cuda")

model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 3)).to("cuda:0")
criterion = nn.CrossEntropyLoss()
batch = ds["train"][0:16]
'''
CELL = '''
logits = model(batch["input"])
loss = criterion(logits, batch["labels"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch['input']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = {k: v.to("cuda:0") for k, v in batch.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
