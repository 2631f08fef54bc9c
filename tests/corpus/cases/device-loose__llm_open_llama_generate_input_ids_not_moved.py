"""OpenLLaMA loaded with `device_map='auto'`: the prompt's input_ids stay on the CPU for `model.generate`.

Source: https://github.com/openlm-research/open_llama/issues/76
The user loaded `LlamaForCausalLM.from_pretrained(model_path, torch_dtype=torch.float16,
device_map='auto')` and generation failed with "found at least two devices, cuda:0 and cpu! (when
checking argument for argument index in method wrapper_CUDA__index_select)". The answer: tokenize,
then `input_ids = input_ids.to(model.device)` before generating. Stand-in: a tiny LLaMA-shaped causal
LM placed on cuda:0 (what device_map='auto' does on one GPU) with a greedy `generate`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab_size=128, hidden_size=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.mlp = nn.Linear(hidden_size, hidden_size)
        self.norm = nn.LayerNorm(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    @property
    def device(self):
        return self.embed_tokens.weight.device

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        h = h + torch.nn.functional.silu(self.mlp(h))
        return self.lm_head(self.norm(h))

    def generate(self, input_ids, max_new_tokens=8):
        for _ in range(max_new_tokens):
            next_token = self(input_ids)[:, -1, :].argmax(dim=-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids

device = torch.device('cuda:0')
model = LlamaForCausalLM().half().to(device)   # from_pretrained(..., torch_dtype=torch.float16, device_map='auto')
prompt = 'Q: What is the largest animal?\\nA:'
input_ids = torch.tensor([[1, 660, 29901, 1724, 338, 278, 10150, 13019]]) % 128   # tokenizer(prompt, return_tensors="pt").input_ids
'''
CELL = '''
generation_output = model.generate(input_ids=input_ids, max_new_tokens=8)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "namespace"
REFERENCE_FIX = '''
input_ids = input_ids.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
