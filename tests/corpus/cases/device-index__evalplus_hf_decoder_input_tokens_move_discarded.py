"""evalplus HF backend: `input_tokens.to(self.device)` is called but its result is thrown away, so generate gets CPU token ids.

Source: https://github.com/evalplus/evalplus/issues/292
`evalplus.codegen --model $MODEL --dataset humaneval --backend hf --greedy` failed with "Expected all
tensors to be on the same device, but got index is on cpu, different from other tensors on
cuda:0", after the warning "`input_ids` is on cpu, whereas the model is on cuda". The reporter:
"I fixed this by replacing `input_tokens.to(self.device)` with `input_tokens =
input_tokens.to(self.device)` around line 77 in hf.py." Stand-in: a tiny causal LM and a
character tokenizer inside the decoder class.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=96, hidden=16):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, hidden)
        self.block = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids):
        return self.lm_head(torch.relu(self.block(self.wte(input_ids))))

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=6, do_sample=False):
        for _ in range(max_new_tokens):
            nxt = self(input_ids).select(1, -1).argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, nxt], dim=1)
        return input_ids

class HuggingFaceDecoder:
    def __init__(self, name, device="cuda:0", max_new_tokens=6):
        self.name = name
        self.device = torch.device(device)
        self.max_new_tokens = max_new_tokens
        self.model = TinyCausalLM().to(self.device)

    def encode(self, prompt):
        return torch.tensor([[ord(c) % 96 for c in prompt]])

    def codegen(self, prompt, do_sample=False, num_samples=1):
        input_tokens = self.encode(prompt)
        input_tokens.to(self.device)
        outputs = self.model.generate(input_tokens, max_new_tokens=self.max_new_tokens, do_sample=do_sample)
        return [outputs.select(0, 0)]

decoder = HuggingFaceDecoder("bigcode/tiny-starcoder")
'''
CELL = '''
samples = decoder.codegen("def truncate_number(number: float) -> float:", do_sample=False)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_tokens"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        input_tokens.to(self.device)",
    "        input_tokens = input_tokens.to(self.device)",
)
CLEAN = False
