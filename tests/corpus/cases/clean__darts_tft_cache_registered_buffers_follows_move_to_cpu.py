"""Look-alike: Darts TFT after PR #3053: the cached attention mask and relative index are non-persistent buffers and follow `.cpu()`.

Source: https://github.com/unit8co/darts/pull/3053
"Fix device mismatch error in TFTModel when moving a trained model to a different device": registering
`attention_mask` and `relative_index` with `register_buffer(..., persistent=False)` makes
`Module._apply` move them with the module, so the cache built during GPU training is on the CPU after
`inner.cpu()` and the next forward with the same batch size reuses it safely. Stand-ins as in the bug
case.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        self.register_buffer("attention_mask", None, persistent=False)
        self.register_buffer("relative_index", None, persistent=False)
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
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
