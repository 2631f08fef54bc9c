"""OpenFedLLM DPO on 4 GPUs: policy and reference models each loaded with device_map="auto" end on different GPUs.

Source: https://github.com/rui-ye/OpenFedLLM/issues/51
Running the DPO script on four cards failed in TRL's `dpo_loss` at
`logits = pi_logratios - ref_logratios` with "found at least two devices, cuda:0 and cuda:3!":
`model` and `model_ref` were both loaded with `device_map='auto'`, so their last layers (and the
log-probs they produce) sit on different GPUs. Stand-in: the policy's and the reference's
per-sequence log-probs as the two dispatched models left them, and TRL's sigmoid `dpo_loss`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn.functional as F

class DPOTrainer:
    def __init__(self, beta=0.1):
        self.beta = beta

    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps,
                 reference_chosen_logps, reference_rejected_logps):
        pi_logratios = policy_chosen_logps - policy_rejected_logps
        ref_logratios = reference_chosen_logps - reference_rejected_logps
        logits = pi_logratios - ref_logratios
        losses = -F.logsigmoid(self.beta * logits)
        chosen_rewards = self.beta * (policy_chosen_logps - reference_chosen_logps).detach()
        rejected_rewards = self.beta * (policy_rejected_logps - reference_rejected_logps).detach()
        return losses, chosen_rewards, rejected_rewards

trainer = DPOTrainer(beta=0.1)
# concatenated_forward(model, batch): model's lm_head was placed on cuda:0 by device_map="auto"
policy_chosen_logps = torch.randn(2).to("cuda:0")
policy_rejected_logps = torch.randn(2).to("cuda:0")
# concatenated_forward(model_ref, batch): model_ref's lm_head landed on cuda:3
reference_chosen_logps = torch.randn(2).to("cuda:3")
reference_rejected_logps = torch.randn(2).to("cuda:3")
'''
CELL = '''
losses, chosen_rewards, rejected_rewards = trainer.dpo_loss(
    policy_chosen_logps, policy_rejected_logps, reference_chosen_logps, reference_rejected_logps)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["reference_chosen_logps", "reference_rejected_logps"]
FIX = "namespace"
REFERENCE_FIX = '''
reference_chosen_logps = reference_chosen_logps.to("cuda:0")
reference_rejected_logps = reference_rejected_logps.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
