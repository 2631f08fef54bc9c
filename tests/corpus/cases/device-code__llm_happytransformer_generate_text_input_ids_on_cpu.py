"""happytransformer: `HappyGeneration.generate_text()` after `train()` on a GPU: the encoded prompt stays on the CPU.

Source: https://github.com/EricFillion/happy-transformer/issues/220
On Colab with a GPU, `happy_gen.train("test.txt")` leaves the model on cuda, and the next
`happy_gen.generate_text("Artificial intelligence is ")` fails ("Input, output and indices must be
on the current device"): `generate_text` encodes the prompt with `return_tensors="pt"` and passes it
to `model.generate` without a device. The maintainers' fix (#223, v2.2.2) moves `input_ids` to the
model's device. Stand-in: HappyGeneration with a tiny causal LM, toy tokenizer and a greedy generate.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ToyTokenizer:
    def encode(self, text, return_tensors=None):
        ids = [sum(map(ord, w)) % 97 for w in text.split()]
        return torch.tensor([ids]) if return_tensors == "pt" else ids

class CausalLM(nn.Module):
    def __init__(self, vocab_size=100, n_embd=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.proj(self.embed(input_ids))))

    def generate(self, input_ids, max_length=20):
        while input_ids.shape[-1] < max_length:
            next_token = self(input_ids)[:, -1, :].argmax(dim=-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids

class HappyGeneration:
    def __init__(self):
        self._device = torch.device("cuda:0")   # the library: cuda when available
        self.model = CausalLM()
        self.tokenizer = ToyTokenizer()

    def train(self, input_filepath):
        self.model.to(self._device)
        self.model.train()

    def generate_text(self, text, max_length=12):
        input_ids = self.tokenizer.encode(text, return_tensors="pt")
        output = self.model.generate(input_ids, max_length=max_length)
        return output

happy_gen = HappyGeneration()
happy_gen.train("test.txt")
'''
CELL = '''
output = happy_gen.generate_text("Artificial intelligence is ")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["happy_gen"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('input_ids = self.tokenizer.encode(text, return_tensors="pt")',
                  'input_ids = self.tokenizer.encode(text, return_tensors="pt").to(self._device)')
CLEAN = False
