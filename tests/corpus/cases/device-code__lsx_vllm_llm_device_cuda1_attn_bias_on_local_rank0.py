"""vLLM `LLM("facebook/opt-125m", device="cuda:1")`: the model goes to cuda:1 but the attention bias is built on card 0.

Source: https://github.com/vllm-project/vllm/pull/13027
"[executor] init `local_rank` as device index": with a single-GPU executor the worker's
`local_rank` was always 0, so tensors the worker and its attention backend create on
`cuda:{local_rank}` (the attention bias among them) landed on cuda:0, while the weights were loaded
on the requested `device="cuda:1"`: a device conflict on the first forward. The PR takes
`local_rank` from the index in `device`.
Stand-in: an `LLM` front end, a uni-process executor/worker, and an OPT-like one-layer model whose
attention adds the worker-built causal bias.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

class OPTAttention(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out_proj = nn.Linear(hidden, hidden)

    def forward(self, h, attn_bias):
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + attn_bias
        return self.out_proj(scores.softmax(-1) @ v)

class OPTForCausalLM(nn.Module):
    def __init__(self, vocab_size=100, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.self_attn = OPTAttention(hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids, attn_bias):
        h = self.embed_tokens(input_ids)
        return self.lm_head(h + self.self_attn(h, attn_bias))

class Worker:
    def __init__(self, device_config, local_rank):
        self.local_rank = local_rank
        self.device = torch.device(f"cuda:{self.local_rank}")       # torch.cuda.set_device(local_rank)
        self.model = OPTForCausalLM().to(device_config)               # load_model() onto device_config.device

    def build_attn_bias(self, seq_len):
        mask = torch.full((seq_len, seq_len), float("-inf"), device=self.device)
        return torch.triu(mask, diagonal=1)

    @torch.no_grad()
    def execute_model(self, input_ids):
        attn_bias = self.build_attn_bias(input_ids.shape[-1])
        return self.model(input_ids.to(next(self.model.parameters()).device), attn_bias)

class UniProcExecutor:
    def __init__(self, device):
        local_rank = 0
        self.driver_worker = Worker(torch.device(device), local_rank)

class LLM:
    def __init__(self, model, device="cuda"):
        self.llm_engine = UniProcExecutor(device)

    def generate(self, prompt_token_ids):
        return self.llm_engine.driver_worker.execute_model(prompt_token_ids).argmax(-1)

llm = LLM("facebook/opt-125m", device="cuda:1")
prompt_token_ids = torch.randint(0, 100, (1, 6))
'''
CELL = '''
outputs = llm.generate(prompt_token_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["llm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        local_rank = 0\n",
                  "        local_rank = torch.device(device).index or 0\n")
CLEAN = False
