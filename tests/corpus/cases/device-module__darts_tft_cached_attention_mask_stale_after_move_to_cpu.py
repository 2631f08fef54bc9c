"""Darts TFT: the cached attention mask and relative index stay on the GPU after the trained module is moved to the CPU.

Source: https://github.com/unit8co/darts/issues/3052
"TFTModel: Device mismatch after moving model between devices (e.g. GPU to CPU)": `_TFTModule` caches
`self.attention_mask` and `self.relative_index` as plain instance attributes and rebuilds them only
when the batch size changes. After fitting on the GPU, moving the module with `.cpu()` / `.to()` leaves
them on cuda (Module._apply only sees parameters and buffers), and the next forward with the same batch
size reuses them, so `torch.cat` fails. Fixed in PR #3053 by registering both as non-persistent
buffers. Stand-in: `_TFTModule` reduced to the cache logic, the input embedding and one single-head attention
layer; the cache is built by one forward on the GPU, as at the end of training.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class _TFTModule(nn.Module):
    def __init__(self, input_chunk_length=4, output_chunk_length=2, n_features=1, hidden_size=8):
        super().__init__()
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.add_relative_index = True
        self.batch_size_last = -1
        self.attention_mask = None
        self.relative_index = None
        self.input_embedding = nn.Linear(n_features + 1, hidden_size)
        self.qkv = nn.Linear(hidden_size, 3 * hidden_size)
        self.output_layer = nn.Linear(hidden_size, 1)

    def _generate_relative_index(self, batch_size, device):
        steps = self.input_chunk_length + self.output_chunk_length
        index = torch.arange(steps, dtype=torch.float32, device=device) / steps
        return index.view(1, steps, 1).expand(batch_size, steps, 1)

    def _get_attention_mask_future(self, time_steps, device):
        return torch.triu(torch.ones(time_steps, time_steps, dtype=torch.bool, device=device), diagonal=1)

    def forward(self, x_past, x_future):
        batch_size = x_past.shape[0]
        x_cont = torch.cat([x_past, x_future], dim=1)
        if batch_size != self.batch_size_last:
            self.attention_mask = self._get_attention_mask_future(x_cont.shape[1], x_cont.device)
            if self.add_relative_index:
                self.relative_index = self._generate_relative_index(batch_size, x_cont.device)
            self.batch_size_last = batch_size
        if self.add_relative_index:
            x_cont = torch.cat([x_cont, self.relative_index], dim=2)
        h = self.input_embedding(x_cont)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = (q @ k.transpose(1, 2)).masked_fill(self.attention_mask, float("-inf"))
        attn = scores.softmax(dim=-1) @ v
        return self.output_layer(attn).narrow(1, self.input_chunk_length, self.output_chunk_length)

class TFTModel:
    """darts.models.TFTModel: the torch module lives in `.model` once fitted."""
    def __init__(self, **kwargs):
        self.model = _TFTModule(**kwargs)

    def fit(self, x_past, x_future, device):
        self.model = self.model.to(device)
        self.model(x_past.to(device), x_future.to(device))    # last training step
        return self

model = TFTModel(input_chunk_length=4, output_chunk_length=2)
x_past, x_future = torch.randn(3, 4, 1), torch.randn(3, 2, 1)
model.fit(x_past, x_future, device=torch.device("cuda:0"))

# After training, PyTorch Lightning has already moved the model back to CPU
inner = model.model
inner = inner.cpu()
'''
CELL = '''
pred = inner(x_past, x_future)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inner.relative_index", "inner.attention_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
inner.relative_index = inner.relative_index.cpu()
inner.attention_mask = inner.attention_mask.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
