"""LLaMA-Factory DPO under FSDP (cpu_ram_efficient_loading): the reference model stays on the CPU.

Source: https://github.com/hiyouga/LlamaFactory/issues/9560
"When running DPO training with FSDP enabled (FULL_SHARD), a RuntimeError occurs at the embedding
layer because the reference model resides on the CPU while inputs are on CUDA" (`torch.embedding`:
"found at least two devices, cuda:x and cpu"). With `fsdp_cpu_ram_efficient_loading` both models
are loaded on the CPU; the policy is prepared (sharded and moved) by the trainer, the reference
model is not. Stand-in: a tiny causal LM, a trainer whose `prepare` moves the policy only, and the
reference log-prob computation of `concatenated_forward`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layer = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask=None):
        return self.lm_head(torch.tanh(self.layer(self.embed_tokens(input_ids))))

class CustomDPOTrainer:
    def __init__(self, model, ref_model, device):
        self.device = device
        self.model = model.to(device)          # accelerator.prepare(model): FSDP-wrapped, on GPU
        self.ref_model = ref_model             # fsdp_cpu_ram_efficient_loading: left where loaded

    @staticmethod
    def get_batch_logps(logits, labels):
        logps = logits.log_softmax(-1).gather(2, labels.unsqueeze(2)).squeeze(2)
        return logps.sum(-1)

    def concatenated_forward(self, model, batch):
        logits = model(batch["input_ids"], batch["attention_mask"])
        logps = self.get_batch_logps(logits, batch["labels"])      # labels already shifted by the collator
        chosen, rejected = logps.chunk(2, dim=0)
        return chosen, rejected

    def compute_reference_log_probs(self, batch):
        with torch.no_grad():
            return self.concatenated_forward(self.ref_model, batch)

device = torch.device("cuda:0")
model = TinyCausalLM()
ref_model = TinyCausalLM()
trainer = CustomDPOTrainer(model, ref_model, device)
ids = torch.randint(0, 100, (4, 12))
batch = {"input_ids": ids.to(device), "attention_mask": torch.ones_like(ids).to(device),
         "labels": ids.clone().to(device)}
'''
CELL = '''
reference_chosen_logps, reference_rejected_logps = trainer.compute_reference_log_probs(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer.ref_model"]
FIX = "namespace"
REFERENCE_FIX = '''
trainer.ref_model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
