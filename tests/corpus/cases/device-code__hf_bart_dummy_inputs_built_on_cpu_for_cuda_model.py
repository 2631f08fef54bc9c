"""transformers BART `test_dummy_inputs` on GPU: the `dummy_inputs` property builds its input_ids on the CPU.

Source: https://github.com/huggingface/transformers/issues/3381
`model.to(torch_device); model(**model.dummy_inputs)` fails on a GPU machine with "Expected object of device
type cuda but got device type cpu for argument #3 'index' in call to _th_index_select": BartModel's
`dummy_inputs` property writes `input_ids = torch.tensor([[0, 6, 10, 4, 2], [0, 8, 12, 2, pad_token]])` with no
device. PR #3398 passes `device=self.device` (and adds a `device` property). Stand-ins: the config, the
property and a tiny encoder-decoder forward.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class BartModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.shared = nn.Embedding(config.vocab_size, config.d_model, padding_idx=config.pad_token_id)
        self.encoder = nn.Linear(config.d_model, config.d_model)
        self.decoder = nn.Linear(config.d_model, config.d_model)

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def dummy_inputs(self):
        pad_token = self.config.pad_token_id
        input_ids = torch.tensor([[0, 6, 10, 4, 2], [0, 8, 12, 2, pad_token]])
        dummy_inputs = {"attention_mask": input_ids.ne(pad_token), "input_ids": input_ids}
        return dummy_inputs

    def forward(self, input_ids, attention_mask=None):
        x = self.shared(input_ids) * attention_mask.unsqueeze(-1)
        enc = torch.tanh(self.encoder(x))
        return (torch.tanh(self.decoder(enc)),)

torch_device = "cuda:0"
config = SimpleNamespace(vocab_size=99, d_model=24, pad_token_id=1)
model = BartModel(config)
model.to(torch_device)
model.eval()
'''
CELL = '''
with torch.no_grad():
    result = model(**model.dummy_inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input_ids = torch.tensor([[0, 6, 10, 4, 2], [0, 8, 12, 2, pad_token]])",
                  "input_ids = torch.tensor([[0, 6, 10, 4, 2], [0, 8, 12, 2, pad_token]], device=self.device)")
CLEAN = False
