"""GPT-2 fine-tuned on the GPU, then `input_ids.to(device)` without assigning it before `model.generate`.

Source: https://github.com/huggingface/transformers/issues/9229
"Generate function does not work with GPU": the user ran `input_ids.to(device)` and then
`model.generate(input_ids, do_sample=True, max_length=150, top_k=50, top_p=0.92)` and got "Input,
output and indices must be on the current device"; with model and input on the CPU it works.
`Tensor.to` is not in-place: `input_ids` stayed on the CPU while the model was on cuda.
Stand-in: a two-layer GPT-2-shaped LM with a greedy `generate` loop instead of transformers.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class GPT2LMHeadModel(nn.Module):
    def __init__(self, vocab_size=100, n_positions=64, n_embd=32):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(n_positions, n_embd)
        self.h = nn.ModuleList([nn.Linear(n_embd, n_embd) for _ in range(2)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, input_ids):
        position_ids = torch.arange(input_ids.shape[-1], device=input_ids.device).unsqueeze(0)
        hidden = self.wte(input_ids) + self.wpe(position_ids)
        for block in self.h:
            hidden = hidden + torch.tanh(block(hidden))
        return self.lm_head(self.ln_f(hidden))

    def generate(self, input_ids, max_length=20, **kwargs):
        while input_ids.shape[-1] < max_length:
            logits = self(input_ids)[:, -1, :]
            next_token = torch.argmax(logits, dim=-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids

device = torch.device('cuda:0')   # the user: 'cuda' if torch.cuda.is_available() else 'cpu'
model = GPT2LMHeadModel()
model.to(device)
input_ids = torch.tensor([[15, 7, 42, 3]])   # tokenizer.encode(prompt, return_tensors='pt')
input_ids.to(device)
'''
CELL = '''
sample_output = model.generate(
    input_ids,
    do_sample=True,
    max_length=12,
    top_k=50,
    top_p=0.92
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "namespace"
REFERENCE_FIX = '''
input_ids = input_ids.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
