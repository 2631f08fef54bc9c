"""DPO with the reference model placed on a second GPU: the reference log-probs come back on cuda:1 and the DPO loss subtracts them from the policy's cuda:0 log-probs.

Source: https://github.com/huggingface/trl/pull/1190
"Allow separate devices for target/ref models" (jondurbin, the DPO trainer behind axolotl's and
LLaMA-Factory's DPO recipes): to fit both models, the reference model was put on its own GPU;
`dpo_loss` then mixes `policy_chosen_logps` (accelerator device) with `reference_chosen_logps`
(the ref model's device). The PR moves the log-probs to `self.accelerator.device` before the
subtraction. Stand-ins: a tiny causal LM for both models, `concatenated_forward` reduced to
summed token log-probs, and the sigmoid DPO loss.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class CausalLM(nn.Module):
    def __init__(self, vocab_size=64, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed(input_ids)))

def concatenated_forward(model, batch):
    input_ids = torch.cat([batch["chosen_input_ids"], batch["rejected_input_ids"]], dim=0)
    input_ids = input_ids.to(next(model.parameters()).device)
    logps = F.log_softmax(model(input_ids), dim=-1).amax(-1).sum(-1)
    n = batch["chosen_input_ids"].shape[0]
    return logps.narrow(0, 0, n), logps.narrow(0, n, n)

def dpo_loss(policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
             reference_rejected_logps, beta=0.1):
    pi_logratios = policy_chosen_logps - policy_rejected_logps
    ref_logratios = reference_chosen_logps - reference_rejected_logps
    logits = pi_logratios - ref_logratios
    losses = -F.logsigmoid(beta * logits)
    chosen_rewards = beta * (policy_chosen_logps - reference_chosen_logps).detach()
    rejected_rewards = beta * (policy_rejected_logps - reference_rejected_logps).detach()
    return losses, chosen_rewards, rejected_rewards

accelerator_device = torch.device("cuda:0")
model = CausalLM().to(accelerator_device)
ref_model = CausalLM().to("cuda:1")           # the reference model gets its own GPU
batch = {"chosen_input_ids": torch.randint(0, 64, (2, 8)).to(accelerator_device),
         "rejected_input_ids": torch.randint(0, 64, (2, 8)).to(accelerator_device)}
with torch.no_grad():
    policy_chosen_logps, policy_rejected_logps = concatenated_forward(model, batch)
    reference_chosen_logps, reference_rejected_logps = concatenated_forward(ref_model, batch)
'''
CELL = '''
losses, chosen_rewards, rejected_rewards = dpo_loss(
    policy_chosen_logps, policy_rejected_logps, reference_chosen_logps, reference_rejected_logps)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["reference_chosen_logps", "reference_rejected_logps"]
FIX = "namespace"
REFERENCE_FIX = '''
reference_chosen_logps = reference_chosen_logps.to(accelerator_device)
reference_rejected_logps = reference_rejected_logps.to(accelerator_device)
'''
REFERENCE_EDIT = None
CLEAN = False
