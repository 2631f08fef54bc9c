"""transformers OpenAI GPT: `position_ids` registered as a buffer at init and sliced in `forward`, so the traced model follows `.to()`.

Source: https://github.com/huggingface/transformers/pull/5773
"This will make it compatible with TorchScript export and avoid hardcoded `position_ids` tensor's
device in the generated graph": instead of `torch.arange(input_shape[-1], device=device)` inside
`forward` (which tracing freezes to the trace device), `OpenAIGPTModel.__init__` does
`self.register_buffer("position_ids", torch.arange(config.n_positions))` and `forward` uses
`position_ids = self.position_ids[None, : input_shape[-1]]`. The range is built on the CPU at init
and then moves with the model. Look-alike: an `arange` made without a device, a model prepared for
tracing, then moved to the GPU, and it runs. Stand-ins: the model reduced to its embeddings and one
linear block; the traced module run as the module itself.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class OpenAIGPTConfig:
    vocab_size, n_positions, n_embd = 100, 32, 16

class OpenAIGPTModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.tokens_embed = nn.Embedding(config.vocab_size, config.n_embd)
        self.positions_embed = nn.Embedding(config.n_positions, config.n_embd)
        self.h = nn.Linear(config.n_embd, config.n_embd)
        self.register_buffer("position_ids", torch.arange(config.n_positions))

    def forward(self, input_ids):
        input_shape = input_ids.size()
        input_ids = input_ids.view(-1, input_shape[-1])
        position_ids = self.position_ids[None, : input_shape[-1]]
        inputs_embeds = self.tokens_embed(input_ids)
        position_embeds = self.positions_embed(position_ids)
        hidden_states = inputs_embeds + position_embeds
        return self.h(hidden_states)

model = OpenAIGPTModel(OpenAIGPTConfig())
example = torch.randint(0, 100, (1, 12))
traced = model                         # torch.jit.trace(model, example) on the CPU
traced = traced.to("cuda:0")
input_ids = torch.randint(0, 100, (2, 12)).to("cuda:0")
'''
CELL = '''
hidden = traced(input_ids)
print(hidden.shape, hidden.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
