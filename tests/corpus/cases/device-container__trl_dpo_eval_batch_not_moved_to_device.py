"""TRL DPO example, evaluation step: the eval batch reaches `concatenated_forward` on the CPU.

Source: https://github.com/huggingface/trl/issues/525
Running `trl/examples/dpo.py` failed at the evaluation step with "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu!"; the reporter's hotfix adds
`.to(self.accelerator.device)` to `concatenated_batch["concatenated_input_ids"]`, the attention mask
and the labels in `concatenated_forward` ("I am not sure why the trainer does not handle the device
change automatically"). Stand-in: the padded DPO batch dict from the eval dataloader (not moved),
`concatenated_inputs` and `concatenated_forward` of DPOTrainer, a tiny causal LM on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask=None):
        return self.lm_head(self.embed_tokens(input_ids))

class DPOTrainer:
    def __init__(self, model, device):
        self.model = model
        self.device = device

    def concatenated_inputs(self, batch):
        out = {}
        for k in ("input_ids", "attention_mask", "labels"):
            out[f"concatenated_{k}"] = torch.cat([batch[f"chosen_{k}"], batch[f"rejected_{k}"]], dim=0)
        return out

    def _get_batch_logps(self, logits, labels):
        return logits.log_softmax(-1).gather(2, labels.unsqueeze(2)).squeeze(2).sum(-1)

    def concatenated_forward(self, model, batch):
        concatenated_batch = self.concatenated_inputs(batch)
        all_logits = model(concatenated_batch["concatenated_input_ids"],
                           attention_mask=concatenated_batch["concatenated_attention_mask"]).to(torch.float32)
        all_logps = self._get_batch_logps(all_logits, concatenated_batch["concatenated_labels"])
        len_chosen = batch["chosen_input_ids"].shape[0]
        chosen_logps, rejected_logps = all_logps.split(len_chosen)
        return chosen_logps, rejected_logps

device = torch.device("cuda:0")
model = TinyCausalLM().to(device)
trainer = DPOTrainer(model, device)

def collate(n=2, length=10):
    b = {}
    for side in ("chosen", "rejected"):
        ids = torch.randint(0, 100, (n, length))
        b[f"{side}_input_ids"] = ids
        b[f"{side}_attention_mask"] = torch.ones_like(ids)
        b[f"{side}_labels"] = ids.clone()
    return b

batch = collate()            # from the eval dataloader, never put on the accelerator's device
'''
CELL = '''
with torch.no_grad():
    policy_chosen_logps, policy_rejected_logps = trainer.concatenated_forward(model, batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = {k: v.to("cuda:0") for k, v in batch.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
