"""TRL PPOTrainer.batched_forward_pass feeds the data collator's CPU batch to the GPU model.

Source: https://github.com/huggingface/trl/pull/144
"fix bug in batched_forward_pass": `self.data_collator` (DataCollatorForLanguageModeling, padding
through the tokenizer) returns freshly built tensors on the CPU, so the following
`self.model(**input_kwargs)` fails although queries and responses were on the GPU. The merged fix
adds `.to(self.accelerator.device)` after the collator call.
Stand-ins: the collator (pads into new CPU tensors, as `tokenizer.pad` does), a tiny causal LM with
a value head (AutoModelForCausalLMWithValueHead), and the trainer reduced to `batched_forward_pass`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Accelerator:
    def __init__(self, device):
        self.device = torch.device(device)

class DataCollatorForLanguageModeling:
    """transformers' collator, mlm=False: pads a list of examples into a new batch (built on the CPU)."""
    def __init__(self, pad_token_id=0):
        self.pad_token_id = pad_token_id
    def __call__(self, examples):
        max_len = max(len(e["input_ids"]) for e in examples)
        input_ids = torch.full((len(examples), max_len), self.pad_token_id, dtype=torch.long)
        attention_mask = torch.zeros((len(examples), max_len), dtype=torch.long)
        for i, e in enumerate(examples):
            n = len(e["input_ids"])
            input_ids[i, :n] = e["input_ids"]
            attention_mask[i, :n] = e["attention_mask"]
        labels = input_ids.clone()
        return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}

class AutoModelForCausalLMWithValueHead(nn.Module):
    def __init__(self, vocab_size=50, hidden=16):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)
        self.v_head = nn.Linear(hidden, 1)
    def forward(self, input_ids, attention_mask=None, labels=None):
        h = self.wte(input_ids)
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1).to(h.dtype)
        return self.lm_head(h), None, self.v_head(h).squeeze(-1)

def logprobs_from_logits(logits, labels):
    logp = F.log_softmax(logits, dim=2)
    return torch.gather(logp, 2, labels.unsqueeze(2)).squeeze(-1)

class PPOTrainer:
    def __init__(self, config, model, ref_model, tokenizer=None):
        self.config = config
        self.accelerator = Accelerator("cuda:0")
        self.model = model.to(self.accelerator.device)
        self.ref_model = ref_model.to(self.accelerator.device)
        self.data_collator = DataCollatorForLanguageModeling(pad_token_id=0)

    def batched_forward_pass(self, model, queries, responses):
        bs = self.config["batch_size"]
        fbs = self.config["forward_batch_size"]
        all_logprobs, all_values = [], []
        for i in range(int(bs / fbs)):
            query_batch = queries[i * fbs : (i + 1) * fbs]
            response_batch = responses[i * fbs : (i + 1) * fbs]
            input_ids = [torch.cat([q, r]) for q, r in zip(query_batch, response_batch)]
            input_kwargs = self.data_collator(
                [{"input_ids": ids, "attention_mask": torch.ones_like(ids)} for ids in input_ids]
            )
            input_kwargs.pop("labels", None)
            logits, _, v = model(**input_kwargs)
            logprobs = logprobs_from_logits(logits[:, :-1, :], input_kwargs["input_ids"][:, 1:])
            all_logprobs.append(logprobs)
            all_values.append(v)
        return all_logprobs, all_values

config = {"batch_size": 4, "forward_batch_size": 2}
model = AutoModelForCausalLMWithValueHead()
ref_model = AutoModelForCausalLMWithValueHead()
ppo_trainer = PPOTrainer(config, model, ref_model)
device = ppo_trainer.accelerator.device
query_tensors = [torch.randint(1, 50, (5,), device=device) for _ in range(4)]
response_tensors = [torch.randint(1, 50, (7,), device=device) for _ in range(4)]
'''
CELL = '''
with torch.no_grad():
    logprobs, values = ppo_trainer.batched_forward_pass(ppo_trainer.model, query_tensors, response_tensors)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ppo_trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            input_kwargs.pop(\"labels\", None)\n",
    "            input_kwargs.pop(\"labels\", None)\n"
    "            input_kwargs = {k: v.to(self.accelerator.device) for k, v in input_kwargs.items()}\n",
)
CLEAN = False
