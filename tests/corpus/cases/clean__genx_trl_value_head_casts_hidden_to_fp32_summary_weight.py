"""TRL's `ValueHead` on a bfloat16 causal LM: the value head is kept in float32 and casts the hidden states to its own dtype.

Source: https://github.com/huggingface/trl/blob/main/trl/models/modeling_value_head.py
`ValueHead.forward` runs `output = self.dropout(hidden_states)` and then "For now force upcast in
fp32 if needed": `if output.dtype != self.summary.weight.dtype: output =
output.to(self.summary.weight.dtype)` before `self.summary`. Look-alike: bf16 backbone, fp32 value
head, mixed dtypes by design, scoring generated responses (`values.gather` at the last token as
reward). Stand-in: a toy bf16 LM returning hidden states; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ValueHead(nn.Module):
    def __init__(self, hidden_size, summary_dropout_prob=0.1):
        super().__init__()
        self.dropout = nn.Dropout(summary_dropout_prob)
        self.summary = nn.Linear(hidden_size, 1)
        self.flatten = nn.Flatten()

    def forward(self, hidden_states):
        output = self.dropout(hidden_states)
        # For now force upcast in fp32 if needed. Let's keep the
        # output in fp32 for numerical stability.
        if output.dtype != self.summary.weight.dtype:
            output = output.to(self.summary.weight.dtype)
        return self.summary(output)

class ToyCausalLM(nn.Module):
    def __init__(self, vocab=60, d=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layer = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        h = torch.tanh(self.layer(self.embed(input_ids)))
        return self.lm_head(h), h

class AutoModelForCausalLMWithValueHead(nn.Module):
    def __init__(self, pretrained_model):
        super().__init__()
        self.pretrained_model = pretrained_model
        self.v_head = ValueHead(32)

    def forward(self, input_ids, attention_mask=None):
        lm_logits, last_hidden_state = self.pretrained_model(input_ids)
        value = self.v_head(last_hidden_state).squeeze(-1)
        return lm_logits, None, value

model = AutoModelForCausalLMWithValueHead(ToyCausalLM().to(torch.bfloat16)).eval()
inputs = {"input_ids": torch.randint(0, 60, (2, 9)), "attention_mask": torch.ones(2, 9, dtype=torch.long)}
'''
CELL = '''
with torch.no_grad():
    _, _, values = model(**inputs)
    rewards = values.gather(dim=-1, index=(inputs["attention_mask"].sum(dim=-1, keepdim=True) - 1))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
