"""NeMo Automodel Gemma4 wrapper: FP32 hidden states reach a BF16 LM head through a wrapper-owned projection outside autocast.

Source: https://github.com/NVIDIA-NeMo/Automodel/pull/3491
"With FSDP2 mixed precision, a custom model wrapper can receive FP32 hidden states while its LM-head
weight is BF16. These wrapper-owned projections execute outside an autocast region, so `nn.Linear`
fails with a `mat1 and mat2 must have the same dtype` error." The merged fix adds an opt-in
`match_lm_head_dtype` to `compute_lm_head_logits` (cast only the projection input to the LM-head
weight dtype) and enables it in Gemma4's two custom LM-head paths. Stand-in: `compute_lm_head_logits`,
a Gemma4-shaped wrapper with logit soft-capping, the text model returning float32 hidden states (the
FSDP2 output dtype) and a bf16 `lm_head` (the param dtype).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

def compute_lm_head_logits(hidden_states, lm_head, logits_to_keep=0, *, match_lm_head_dtype=False):
    slice_indices = slice(-logits_to_keep, None) if isinstance(logits_to_keep, int) else logits_to_keep
    hidden = hidden_states[:, slice_indices, :]
    if match_lm_head_dtype:
        hidden = hidden.to(lm_head.weight.dtype)
    return lm_head(hidden)

class Gemma4TextModel(nn.Module):
    def __init__(self, vocab_size=128, hidden_size=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.mlp = nn.Sequential(nn.Linear(hidden_size, 128), nn.GELU(), nn.Linear(128, hidden_size))
        self.norm = nn.LayerNorm(hidden_size)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        h = h + self.mlp(h)
        return self.norm(h).float()          # FSDP2 MixedPrecisionPolicy(output_dtype=float32)

class Gemma4ForCausalLM(nn.Module):
    def __init__(self, vocab_size=128, hidden_size=64, final_logit_softcapping=30.0):
        super().__init__()
        self.model = Gemma4TextModel(vocab_size, hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)
        self.final_logit_softcapping = final_logit_softcapping

    def forward(self, input_ids, logits_to_keep=0):
        hidden_states = self.model(input_ids)
        logits = compute_lm_head_logits(hidden_states, self.lm_head, logits_to_keep)
        logits = logits / self.final_logit_softcapping
        logits = torch.tanh(logits) * self.final_logit_softcapping
        return logits

model = Gemma4ForCausalLM()
model.lm_head.to(torch.bfloat16)             # sharded with MixedPrecisionPolicy(param_dtype=bfloat16)
input_ids = torch.randint(0, 128, (2, 12))
'''
CELL = '''
logits = model(input_ids)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["model.lm_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("logits = compute_lm_head_logits(hidden_states, self.lm_head, logits_to_keep)",
                  "logits = compute_lm_head_logits(hidden_states, self.lm_head, logits_to_keep, match_lm_head_dtype=True)")
CLEAN = False
