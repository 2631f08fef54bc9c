"""TRL GRPO with a bf16 policy: per-token log-probs stay bf16 while advantages are float32 and the masks are integers.

Source: https://github.com/huggingface/trl/blob/main/trl/trainer/utils.py (`selective_log_softmax`)
and trl/trainer/grpo_trainer.py (`_get_per_token_logps`, `compute_loss`), as of commit 9b67eea47.
With `torch_dtype=bfloat16` the logits are bf16, so `selective_log_softmax` takes its bf16 branch
(row-wise `log_softmax` + `gather` with the int64 completion ids); the loss multiplies the bf16
ratio by float32 `advantages.unsqueeze(1)` and an int `completion_mask`, which type promotion
handles. Look-alike: three dtypes (bf16, float32, int64/int32) meeting in the GRPO loss; it runs.
Stand-ins: a tiny bf16 causal LM; `logits[:, -k:]` slices written `narrow`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def selective_log_softmax(logits, index):
    if logits.dtype in [torch.float32, torch.float64]:
        selected_logits = torch.gather(logits, dim=-1, index=index.unsqueeze(-1)).squeeze(-1)
        logsumexp_values = torch.stack([torch.logsumexp(lg, dim=-1) for lg in logits])
        per_token_logps = selected_logits - logsumexp_values
    else:
        per_token_logps = []
        for row_logits, row_labels in zip(logits, index):
            row_logps = F.log_softmax(row_logits, dim=-1)
            row_per_token_logps = row_logps.gather(dim=-1, index=row_labels.unsqueeze(-1)).squeeze(-1)
            per_token_logps.append(row_per_token_logps)
        per_token_logps = torch.stack(per_token_logps)
    return per_token_logps

class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=100, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None):
        return self.lm_head(self.embed_tokens(input_ids))

def get_per_token_logps(model, input_ids, attention_mask, logits_to_keep):
    logits = model(input_ids, attention_mask=attention_mask)
    logits = logits.narrow(1, 0, logits.size(1) - 1)
    ids = input_ids.narrow(1, input_ids.size(1) - logits_to_keep, logits_to_keep)
    logits = logits.narrow(1, logits.size(1) - logits_to_keep, logits_to_keep)
    return selective_log_softmax(logits, ids)

model = TinyCausalLM().to(torch.bfloat16)          # torch_dtype=bfloat16
prompt_completion_ids = torch.randint(0, 100, (8, 24))
attention_mask = torch.ones(8, 24, dtype=torch.long)
logits_to_keep = 10
completion_mask = torch.ones(8, logits_to_keep, dtype=torch.int32)
advantages = torch.randn(8)                         # float32, from the group-normalized rewards
beta = 0.04
'''
CELL = '''
per_token_logps = get_per_token_logps(model, prompt_completion_ids, attention_mask, logits_to_keep)
ref_per_token_logps = per_token_logps.detach()
per_token_kl = torch.exp(ref_per_token_logps - per_token_logps) - (ref_per_token_logps - per_token_logps) - 1
per_token_loss = torch.exp(per_token_logps - per_token_logps.detach()) * advantages.unsqueeze(1)
per_token_loss = -(per_token_loss - beta * per_token_kl)
loss = ((per_token_loss * completion_mask).sum(dim=1) / completion_mask.sum(dim=1)).mean()
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
