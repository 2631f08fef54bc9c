"""ipex-llm on Intel XPU: `generate(min_new_tokens=...)` fails in `torch.isin` because the EOS id tensor stays on the CPU.

Source: https://github.com/intel/ipex-llm/issues/11519
The all-in-one benchmark's `model.generate(input_ids, do_sample=False, max_new_tokens=out_len,
min_new_tokens=out_len, num_beams=num_beams)` on an xpu model raised "Expected all tensors to be on
the same device, but found at least two devices, xpu:0 and cpu! (when checking argument for argument
test_elements in method wrapper_XPU_Tensor_Tensor_out_isin_out)" at
`eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id)` in MinNewTokensLengthLogitsProcessor:
`vocab_tensor` is made on `scores.device`, while the processor turned `eos_token_id` into a CPU
tensor in `__init__`. Stand-in: the processor as in transformers 4.42 and a greedy generate that
builds it the way `_get_logits_processor` does; cuda:0 stands in for xpu:0.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

class MinNewTokensLengthLogitsProcessor:
    def __init__(self, prompt_length_to_skip, min_new_tokens, eos_token_id):
        if not isinstance(eos_token_id, torch.Tensor):
            if isinstance(eos_token_id, int):
                eos_token_id = [eos_token_id]
            eos_token_id = torch.tensor(eos_token_id)
        self.prompt_length_to_skip = prompt_length_to_skip
        self.min_new_tokens = min_new_tokens
        self.eos_token_id = eos_token_id

    def __call__(self, input_ids, scores):
        new_tokens_length = input_ids.shape[-1] - self.prompt_length_to_skip
        scores_processed = scores.clone()
        vocab_tensor = torch.arange(scores.shape[-1], device=scores.device)
        eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id)
        if new_tokens_length < self.min_new_tokens:
            scores_processed = torch.where(eos_token_mask, -math.inf, scores)
        return scores_processed

class TinyLM(nn.Module):
    def __init__(self, vocab_size=64, hidden=32, eos_token_id=2):
        super().__init__()
        self.eos_token_id = eos_token_id
        self.embed = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed(input_ids)))

    def generate(self, input_ids, max_new_tokens=4, min_new_tokens=0, do_sample=False, num_beams=1):
        processors = []
        if min_new_tokens:
            processors.append(MinNewTokensLengthLogitsProcessor(input_ids.shape[-1], min_new_tokens, self.eos_token_id))
        for _ in range(max_new_tokens):
            scores = self(input_ids)[:, -1, :]
            for proc in processors:
                scores = proc(input_ids, scores)
            next_tokens = scores.argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_tokens], dim=-1)
        return input_ids

model = TinyLM().to("cuda:0")          # optimize_model(...).to("xpu")
input_ids = torch.randint(3, 64, (1, 32)).to("cuda:0")
out_len = 4
'''
CELL = '''
with torch.no_grad():
    output_ids = model.generate(input_ids, do_sample=False, max_new_tokens=out_len,
                                min_new_tokens=out_len, num_beams=1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id)",
                  "eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id.to(scores.device))")
CLEAN = False
