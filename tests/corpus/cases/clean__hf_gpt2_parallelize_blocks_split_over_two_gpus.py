"""Look-alike: transformers' (deprecated) GPT2LMHeadModel.parallelize(device_map) splits the blocks over two GPUs.

Source: https://github.com/huggingface/transformers/blob/v4.10.0/src/transformers/models/gpt2/modeling_gpt2.py
`parallelize` puts `wte`/`wpe` on the first device, the blocks on the devices of `device_map`,
`ln_f` on the last device and `lm_head` on the first; `forward` hands the hidden states over with
`hidden_states.to("cuda:" + str(k + 1))` after each device's last block and back with
`hidden_states.to(self.lm_head.weight.device)` before the head. Parameters on cuda:0 and cuda:1 and
inputs on cuda:0 are the intended layout. Stand-in: GPT-2's parallel code paths with MLP-only
blocks, without `torch.cuda.set_device`; the loss shift uses `narrow` and
`reshape` instead of slicing, `.contiguous()` and `.view` (not simulated on a strided fake tensor).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss

class GPT2Block(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, hidden_states):
        return (hidden_states + self.mlp(self.ln_1(hidden_states)),)

class GPT2Model(nn.Module):
    def __init__(self, vocab_size=100, n_positions=32, n_embd=16, n_layer=4):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(n_positions, n_embd)
        self.h = nn.ModuleList([GPT2Block(n_embd) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.model_parallel = False

    def parallelize(self, device_map):
        self.device_map = device_map
        self.model_parallel = True
        self.first_device = "cpu" if "cpu" in self.device_map.keys() else "cuda:" + str(min(self.device_map.keys()))
        self.last_device = "cuda:" + str(max(self.device_map.keys()))
        self.wte = self.wte.to(self.first_device)
        self.wpe = self.wpe.to(self.first_device)
        for k, v in self.device_map.items():
            for block in v:
                cuda_device = "cuda:" + str(k)
                self.h[block] = self.h[block].to(cuda_device)
        self.ln_f = self.ln_f.to(self.last_device)

    def forward(self, input_ids):
        input_shape = input_ids.size()
        device = input_ids.device
        position_ids = torch.arange(0, input_shape[-1], dtype=torch.long, device=device).unsqueeze(0)
        hidden_states = self.wte(input_ids) + self.wpe(position_ids)
        for i, block in enumerate(self.h):
            outputs = block(hidden_states)
            hidden_states = outputs[0]
            if self.model_parallel:
                for k, v in self.device_map.items():
                    if i == v[-1] and "cuda:" + str(k) != self.last_device:
                        hidden_states = hidden_states.to("cuda:" + str(k + 1))
        return self.ln_f(hidden_states)

class GPT2LMHeadModel(nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.transformer = GPT2Model(**kwargs)
        n_embd, vocab_size = self.transformer.wte.weight.shape[1], self.transformer.wte.weight.shape[0]
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.lm_head.weight = self.transformer.wte.weight
        self.model_parallel = False

    def parallelize(self, device_map):
        self.device_map = device_map
        self.transformer.parallelize(self.device_map)
        self.lm_head = self.lm_head.to(self.transformer.first_device)
        self.model_parallel = True

    def forward(self, input_ids, labels=None):
        hidden_states = self.transformer(input_ids)
        if self.model_parallel:
            hidden_states = hidden_states.to(self.lm_head.weight.device)
        lm_logits = self.lm_head(hidden_states)
        loss = None
        if labels is not None:
            seq_len = lm_logits.size(1)
            shift_logits = lm_logits.narrow(1, 0, seq_len - 1)     # lm_logits[..., :-1, :].contiguous()
            shift_labels = labels.narrow(1, 1, seq_len - 1)         # labels[..., 1:].contiguous()
            loss_fct = CrossEntropyLoss()
            loss = loss_fct(shift_logits.reshape(-1, shift_logits.size(-1)), shift_labels.reshape(-1))
        return loss, lm_logits

model = GPT2LMHeadModel()
device_map = {0: [0, 1], 1: [2, 3]}
model.parallelize(device_map)
input_ids = torch.randint(0, 100, (2, 12)).to("cuda:0")
'''
CELL = '''
loss, logits = model(input_ids, labels=input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
