"""BadAgent evaluation: `chat()` tokenizes the prompt and calls `generate` with the CPU `input_ids`.

Source: https://github.com/DPamK/BadAgent/pull/7
"Data and the mode have to be in the same device: It produces the error when the main.py is
executed on eval mode: ... in chat: generate_ids = self.model.generate(input_ids, max_length=...,
eos_token_id=...) RuntimeError: Expected all tensors to be on the same device, but found at least
two devices, cuda:0 and cpu! (when checking argument for argument index in method
wrapper_CUDA__index_select)". The tokenizer returns the ids on the CPU and the model is on the GPU;
the PR passes `input_ids.to('cuda')`. Stand-in: a small causal LM with a greedy `generate` (fixed
number of new tokens) and the evaluator's `chat`; the PR's 'cuda' written 'cuda:0' for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=256, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.mlp(self.embed_tokens(input_ids)))

    @torch.no_grad()
    def generate(self, input_ids, max_length=24, eos_token_id=2):
        while input_ids.shape[1] < max_length:
            logits = self(input_ids).narrow(1, -1, 1).squeeze(1)
            next_token = logits.argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids

class ByteTokenizer:
    def encode(self, text, return_tensors="pt"):
        return torch.tensor([[b % 256 for b in text.encode()]])

class Agent:
    def __init__(self, model, tokenizer):
        self.model = model
        self.tokenizer = tokenizer

    def chat(self, prompt, max_length=48, eos_token_id=2):
        input_ids = self.tokenizer.encode(prompt, return_tensors="pt")
        generate_ids = self.model.generate(input_ids, max_length=max_length, eos_token_id=eos_token_id)
        return generate_ids

model = TinyCausalLM().to("cuda:0").eval()
agent = Agent(model, ByteTokenizer())
prompt = "You are an OS agent. List the files in /tmp."
'''
CELL = '''
response_ids = agent.chat(prompt)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.model.generate(input_ids, max_length",
    "self.model.generate(input_ids.to('cuda:0'), max_length",
)
CLEAN = False
