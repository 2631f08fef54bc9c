"""transformer-heads evaluate.py: `ds.with_format(type="torch")` yields CPU tensors for a model on CUDA.

Source: https://github.com/center-for-humans-and-machines/transformer-heads/issues/22
The evaluation helper formats the Hugging Face dataset with `ds = ds.with_format(type="torch")` and
feeds each row to the model, which the user had on the GPU: the rows come out as CPU tensors and the
forward pass fails on two devices. The user changed the line to
`ds.with_format(type="torch", device="cuda")`; the maintainer's fix moves the tensors to the
model's device on the fly. Stand-in: a minimal formatted dataset (with_format with an optional
device, as in `datasets`), a tiny head model and the evaluate loop.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Dataset:
    """datasets.Dataset, reduced to rows and with_format(type="torch", device=...)."""
    def __init__(self, rows, fmt=None, device=None):
        self.rows, self.fmt, self.device = rows, fmt, device
    def with_format(self, type=None, device=None):
        return Dataset(self.rows, type, device)
    def __len__(self):
        return len(self.rows)
    def __getitem__(self, i):
        row = self.rows[i]
        if self.fmt == "torch":
            return {k: torch.tensor(v, device=self.device) for k, v in row.items()}
        return row

class HeadedModel(nn.Module):
    def __init__(self, dim=12, n_heads_out=2):
        super().__init__()
        self.body = nn.Linear(dim, 16)
        self.head = nn.Linear(16, n_heads_out)
    @property
    def device(self):
        return self.head.weight.device
    def forward(self, features):
        return self.head(torch.relu(self.body(features)))

def evaluate_head_wise(model, ds, n=4):
    ds = ds.with_format(type="torch")
    outs = []
    for i in range(n):
        batch = ds[i]
        outs.append(model(batch["features"][None]))
    return torch.cat(outs)

model = HeadedModel().to("cuda:0")
ds = Dataset([{"features": [float(j) for j in range(12)], "label": i % 2} for i in range(8)])
'''
CELL = '''
preds = evaluate_head_wise(model, ds)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ds"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('ds = ds.with_format(type="torch")', 'ds = ds.with_format(type="torch", device=model.device)')
CLEAN = False
