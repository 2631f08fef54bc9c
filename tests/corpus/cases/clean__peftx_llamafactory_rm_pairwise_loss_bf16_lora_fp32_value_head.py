"""Look-alike: LLaMA-Factory reward-model step with a bf16 LoRA model, an fp32 value head and a float32 loss.

Source: https://github.com/hiyouga/LLaMA-Factory/blob/main/src/llamafactory/train/rm/trainer.py
`PairwiseTrainer.compute_loss` runs `AutoModelForCausalLMWithValueHead` (trl), splits the batch into
chosen/rejected halves, picks each sequence's last-token value with
`gather(dim=-1, index=(masks.sum(dim=-1, keepdim=True) - 1))` (a long index computed from the
attention mask) and computes `-logsigmoid(chosen_scores.float() - rejected_scores.float()).mean()`.
trl's `ValueHead.forward` ("For now force upcast in fp32 if needed") casts the bf16 hidden states to
its own float32 `summary` weight (https://github.com/huggingface/trl/blob/main/trl/models/modeling_value_head.py).
bf16 model, fp32 head, long index, float32 loss: all deliberate; nothing to report.
Stand-ins (CPU): a tiny bf16 causal LM with LoRA q/v projections, trl's `ValueHead` and
`AutoModelForCausalLMWithValueHead`, and the trainer's `compute_loss`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LoraLinear(nn.Module):
    def __init__(self, base_layer, r=8, lora_alpha=16):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A = nn.Linear(base_layer.in_features, r, bias=False).to(base_layer.weight.dtype)
        self.lora_B = nn.Linear(r, base_layer.out_features, bias=False).to(base_layer.weight.dtype)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = lora_alpha / r

    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = LoraLinear(nn.Linear(d, d, bias=False))
        self.v_proj = LoraLinear(nn.Linear(d, d, bias=False))
        self.norm = nn.LayerNorm(d)

    def forward(self, h):
        return h + self.v_proj(self.norm(h)) * torch.sigmoid(self.q_proj(self.norm(h)))

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Block(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.hidden_size = d

    def forward(self, input_ids, attention_mask=None):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(h), h

class ValueHead(nn.Module):
    """trl.models.modeling_value_head.ValueHead"""
    def __init__(self, hidden_size, summary_dropout_prob=0.1):
        super().__init__()
        self.dropout = nn.Dropout(summary_dropout_prob) if summary_dropout_prob else nn.Identity()
        self.summary = nn.Linear(hidden_size, 1)
        self.flatten = nn.Flatten()

    def forward(self, hidden_states):
        output = self.dropout(hidden_states)
        # For now force upcast in fp32 if needed. Let's keep the
        # output in fp32 for numerical stability.
        if output.dtype != self.summary.weight.dtype:
            output = output.to(self.summary.weight.dtype)
        output = self.summary(output)
        return output

class AutoModelForCausalLMWithValueHead(nn.Module):
    def __init__(self, pretrained_model):
        super().__init__()
        self.pretrained_model = pretrained_model
        self.v_head = ValueHead(pretrained_model.hidden_size)      # created in float32

    def forward(self, input_ids=None, attention_mask=None, **kwargs):
        lm_logits, last_hidden_state = self.pretrained_model(input_ids, attention_mask=attention_mask)
        value = self.v_head(last_hidden_state).squeeze(-1)
        return lm_logits, None, value

def compute_loss(model, inputs):
    """llamafactory.train.rm.trainer.PairwiseTrainer.compute_loss"""
    _, _, values = model(**inputs, output_hidden_states=True, return_dict=True, use_cache=False)
    batch_size = inputs["input_ids"].size(0) // 2
    chosen_masks, rejected_masks = torch.split(inputs["attention_mask"], batch_size, dim=0)
    chosen_rewards, rejected_rewards = torch.split(values, batch_size, dim=0)
    chosen_scores = chosen_rewards.gather(dim=-1, index=(chosen_masks.sum(dim=-1, keepdim=True) - 1))
    rejected_scores = rejected_rewards.gather(dim=-1, index=(rejected_masks.sum(dim=-1, keepdim=True) - 1))
    chosen_scores, rejected_scores = chosen_scores.squeeze(), rejected_scores.squeeze()
    loss = -torch.nn.functional.logsigmoid(chosen_scores.float() - rejected_scores.float()).mean()
    return loss

model = AutoModelForCausalLMWithValueHead(TinyCausalLM().to(torch.bfloat16))   # bf16=True, finetuning_type=lora
model.eval()
attention_mask = torch.ones(4, 12, dtype=torch.long)
attention_mask[1, 9:] = 0
attention_mask[3, 7:] = 0
inputs = {"input_ids": torch.randint(0, 100, (4, 12)), "attention_mask": attention_mask}   # chosen + rejected
'''
CELL = '''
loss = compute_loss(model, inputs)
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
