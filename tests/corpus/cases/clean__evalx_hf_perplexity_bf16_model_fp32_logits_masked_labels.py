"""HF perplexity guide with a bf16 causal LM: logits upcast to float32 for the loss, int64 labels masked with -100.

Source: https://huggingface.co/docs/transformers/perplexity
The sliding-window evaluation clones `input_ids` into `target_ids`, sets `target_ids[:, :-trg_len] = -100`,
calls `outputs = model(input_ids, labels=target_ids)` and accumulates `outputs.loss` into
`torch.exp(torch.stack(nlls).mean())`. With the model loaded in bfloat16, HF causal-LM heads compute
`logits = logits.float()` before the shifted cross-entropy. Look-alike: bf16 weights, float32 logits,
int64 labels with ignore_index, all by design; runs on the CPU.
Stand-in: a one-block causal LM with the HF loss (shift, float logits, ignore_index=-100).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, labels=None):
        h = self.embed(input_ids)
        h = h + self.block(h)
        logits = self.lm_head(h).float()
        loss = None
        if labels is not None:
            shift_logits = logits[:, :-1, :].contiguous()
            shift_labels = labels[:, 1:].contiguous()
            loss = nn.functional.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)),
                                               shift_labels.view(-1), ignore_index=-100)
        return SimpleNamespace(loss=loss, logits=logits)

device = "cpu"
model = TinyCausalLM().to(device, dtype=torch.bfloat16)
encodings = SimpleNamespace(input_ids=torch.randint(0, 50, (1, 200)))
max_length, stride = 64, 32
seq_len = encodings.input_ids.size(1)
'''
CELL = '''
nlls = []
prev_end_loc = 0
for begin_loc in range(0, seq_len, stride):
    end_loc = min(begin_loc + max_length, seq_len)
    trg_len = end_loc - prev_end_loc
    input_ids = encodings.input_ids[:, begin_loc:end_loc].to(device)
    target_ids = input_ids.clone()
    target_ids[:, :-trg_len] = -100
    with torch.no_grad():
        outputs = model(input_ids, labels=target_ids)
        neg_log_likelihood = outputs.loss
    nlls.append(neg_log_likelihood)
    prev_end_loc = end_loc
    if end_loc == seq_len:
        break
ppl = torch.exp(torch.stack(nlls).mean())
print(ppl.dtype, ppl.item())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
