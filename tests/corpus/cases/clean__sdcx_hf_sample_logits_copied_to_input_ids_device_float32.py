"""`generate()` on a bf16 model split over two GPUs: the last-token logits come out of an lm_head on cuda:1 and are copied to `input_ids`' device (cuda:0) in float32 before the logits processors run.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/generation/utils.py
Since "Generate: move `logits` to same device as `input_ids`" (PR #34076) `_sample` takes
`next_token_logits = outputs.logits[:, -1, :].to(copy=True, dtype=torch.float32, device=input_ids.device)`;
the processors built by `_get_logits_processor(..., device=inputs_tensor.device)` hold their tensors
(e.g. `MinLengthLogitsProcessor.eos_token_id`) on that same device, `unfinished_sequences` is made with
`device=input_ids.device`, and `RepetitionPenaltyLogitsProcessor` gathers/scatters with `input_ids`.
Look-alike: bf16 weights on two cards, float32 cuda:0 scores next to a cuda:1 lm_head; it runs.
Stand-ins: a small model dispatched over cuda:0/cuda:1, the two processors (logits_process.py), and the
greedy `_sample` loop without stopping criteria.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class RepetitionPenaltyLogitsProcessor:
    def __init__(self, penalty):
        self.penalty = penalty
    def __call__(self, input_ids, scores):
        score = torch.gather(scores, 1, input_ids)
        score = torch.where(score < 0, score * self.penalty, score / self.penalty)
        return scores.scatter(1, input_ids, score)

class MinLengthLogitsProcessor:
    def __init__(self, min_length, eos_token_id, device="cpu"):
        self.min_length = min_length
        self.eos_token_id = torch.tensor(eos_token_id, device=device)
    def __call__(self, input_ids, scores):
        vocab_tensor = torch.arange(scores.shape[-1], device=scores.device)
        eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id)
        scores_processed = scores.clone()
        if input_ids.shape[-1] < self.min_length:
            scores_processed = torch.where(eos_token_mask, -math.inf, scores)
        return scores_processed

class LogitsProcessorList(list):
    def __call__(self, input_ids, scores):
        for processor in self:
            scores = processor(input_ids, scores)
        return scores

class Out:
    def __init__(self, logits):
        self.logits = logits

class SplitCausalLM(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layer0 = nn.Linear(d, d)
        self.layer1 = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def dispatch(self):
        self.embed_tokens.to("cuda:0"); self.layer0.to("cuda:0")
        self.layer1.to("cuda:1"); self.lm_head.to("cuda:1")
        return self

    def forward(self, input_ids):
        h = torch.tanh(self.layer0(self.embed_tokens(input_ids)))
        h = torch.tanh(self.layer1(h.to("cuda:1")))
        return Out(self.lm_head(h))

    @torch.no_grad()
    def _sample(self, input_ids, logits_processor, max_new_tokens=4, pad_token_id=0):
        batch_size = input_ids.shape[0]
        unfinished_sequences = torch.ones(batch_size, dtype=torch.long, device=input_ids.device)
        for _ in range(max_new_tokens):
            outputs = self(input_ids)
            next_token_logits = outputs.logits[:, -1, :].to(copy=True, dtype=torch.float32, device=input_ids.device)
            next_token_scores = logits_processor(input_ids, next_token_logits)
            next_tokens = torch.argmax(next_token_scores, dim=-1)
            next_tokens = next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences)
            input_ids = torch.cat([input_ids, next_tokens[:, None]], dim=-1)
        return input_ids

model = SplitCausalLM().to(torch.bfloat16).dispatch()   # from_pretrained(..., torch_dtype=torch.bfloat16, device_map="auto")
model.eval()
input_ids = torch.randint(1, 64, (2, 5)).to("cuda:0")  # inputs.to(model.device)
logits_processor = LogitsProcessorList([
    MinLengthLogitsProcessor(8, eos_token_id=[2], device=input_ids.device),
    RepetitionPenaltyLogitsProcessor(1.2),
])
'''
CELL = '''
sequences = model._sample(input_ids, logits_processor, max_new_tokens=4)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
