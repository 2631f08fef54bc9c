"""ColossalAI TP inference engine: `generate(prompt_token_ids=[...])` turns the id list into a float tensor before the embedding.

Source: https://github.com/hpcaitech/ColossalAI/pull/4810
"[infer] Fixed embedding calculation error caused by input data type": when the caller passes
`prompt_token_ids` (a list of ids) instead of prompts, `TPInferEngine.generate` converts the list
with the float-typed `torch.Tensor` constructor, and the model's embedding rejects the float indices
("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int").
The PR builds the ids as an integer tensor.
Stand-in: the engine's `generate` and a tiny LLaMA-like model; cpu, dtype only.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=128, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.mlp = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.nn.functional.silu(self.mlp(self.embed_tokens(input_ids))))

class TPInferEngine:
    def __init__(self, model, max_batch_size=4, max_input_len=16, max_output_len=8):
        self.model = model
        self.max_output_len = max_output_len

    @torch.no_grad()
    def generate(self, prompts=None, prompt_token_ids=None):
        if prompt_token_ids is None:
            raise ValueError("tokenizer path not simulated")
        input_tokens = prompt_token_ids
        if isinstance(input_tokens, list):
            input_tokens = torch.Tensor(input_tokens)
        for _ in range(self.max_output_len):
            nxt = self.model(input_tokens)[:, -1].argmax(-1, keepdim=True)
            input_tokens = torch.cat([input_tokens, nxt], dim=-1)
        return input_tokens

model = LlamaForCausalLM()
engine = TPInferEngine(model, max_batch_size=4, max_input_len=16, max_output_len=8)
prompt_token_ids = [[1, 15, 27, 88, 9], [1, 42, 7, 3, 100]]
'''
CELL = '''
outputs = engine.generate(prompt_token_ids=prompt_token_ids)
'''
EXPECT_ERROR = ("scalar types: Long, Int", "indices")
CULPRITS = ["engine"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input_tokens = torch.Tensor(input_tokens)",
                  "input_tokens = torch.tensor(input_tokens, dtype=torch.long)")
CLEAN = False
