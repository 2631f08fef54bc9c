"""Look-alike: TRL KTOTrainer.kto_loss concatenates bf16 losses with an empty float32 placeholder for the missing side.

Source: https://github.com/huggingface/trl/blob/v0.11.0/trl/trainer/kto_trainer.py
When a micro-batch holds only desirable examples, `kto_loss` sets
`rejected_losses = torch.Tensor([]).to(self.accelerator.device)` ("lists can't be empty -- if they
are, then accelerate.gather will hang"), a float32 tensor, and then
`torch.cat((self.desirable_weight * chosen_losses, self.undesirable_weight * rejected_losses), 0)`
with the chosen losses computed from bf16 log-probs. The placeholder is on the accelerator device and
`torch.cat` promotes the dtypes, so it runs. `kl` comes from `torch.zeros(1).to(policy_chosen_logps.device)`
when `calculate_KL` is off. The method is kept as in the file; the accelerator is a one-process stand-in.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

class Accelerator:
    def __init__(self, device):
        self.device = torch.device(device)
    def gather_for_metrics(self, tensor):
        return tensor

class KTOTrainer:
    def __init__(self, beta=0.1, desirable_weight=1.0, undesirable_weight=1.0, loss_type="kto", calculate_KL=False):
        self.beta = beta
        self.desirable_weight = desirable_weight
        self.undesirable_weight = undesirable_weight
        self.loss_type = loss_type
        self.calculate_KL = calculate_KL
        self.accelerator = Accelerator("cuda:0")

    def kto_loss(
        self,
        policy_chosen_logps,
        policy_rejected_logps,
        policy_KL_logps,
        reference_chosen_logps,
        reference_rejected_logps,
        reference_KL_logps,
    ):
        if self.calculate_KL:
            kl = (policy_KL_logps - reference_KL_logps).mean().detach()
            kl = self.accelerator.gather_for_metrics(kl).mean().clamp(min=0)
        else:
            kl = torch.zeros(1).to(policy_chosen_logps.device)

        # Chosen losses
        if policy_chosen_logps.shape[0] != 0 or reference_chosen_logps.shape[0] != 0:
            chosen_logratios = policy_chosen_logps - reference_chosen_logps

            if self.loss_type == "kto":
                # Eqn (7) of the KTO paper (https://huggingface.co/papers/2402.01306)
                chosen_losses = 1 - F.sigmoid(self.beta * (chosen_logratios - kl))
            elif self.loss_type == "apo_zero_unpaired":
                chosen_losses = 1 - F.sigmoid(self.beta * chosen_logratios)

            chosen_rewards = self.beta * chosen_logratios.detach()

        else:
            # lists can't be empty -- if they are, then accelerate.gather will hang
            chosen_losses = torch.Tensor([]).to(self.accelerator.device)
            chosen_rewards = torch.Tensor([]).to(self.accelerator.device)

        # Rejected losses
        if policy_rejected_logps.shape[0] != 0 or reference_rejected_logps.shape[0] != 0:
            rejected_logratios = policy_rejected_logps - reference_rejected_logps

            if self.loss_type == "kto":
                rejected_losses = 1 - F.sigmoid(self.beta * (kl - rejected_logratios))
            elif self.loss_type == "apo_zero_unpaired":
                rejected_losses = F.sigmoid(self.beta * rejected_logratios)

            rejected_rewards = self.beta * rejected_logratios.detach()
        else:
            # lists can't be empty -- if they are, then accelerate.gather will hang
            rejected_losses = torch.Tensor([]).to(self.accelerator.device)
            rejected_rewards = torch.Tensor([]).to(self.accelerator.device)

        losses = torch.cat(
            (self.desirable_weight * chosen_losses, self.undesirable_weight * rejected_losses),
            0,
        )

        return losses, chosen_rewards, rejected_rewards, kl

trainer = KTOTrainer(beta=0.1)
device = trainer.accelerator.device
# a micro-batch with 4 desirable completions and no undesirable one; policy and reference in bf16
policy_chosen_logps = torch.randn(4).to(device=device, dtype=torch.bfloat16)
reference_chosen_logps = torch.randn(4).to(device=device, dtype=torch.bfloat16)
policy_rejected_logps = torch.randn(0).to(device=device, dtype=torch.bfloat16)
reference_rejected_logps = torch.randn(0).to(device=device, dtype=torch.bfloat16)
policy_KL_logps = reference_KL_logps = None
'''
CELL = '''
losses, chosen_rewards, rejected_rewards, kl = trainer.kto_loss(
    policy_chosen_logps,
    policy_rejected_logps,
    policy_KL_logps,
    reference_chosen_logps,
    reference_rejected_logps,
    reference_KL_logps,
)
loss = losses.nanmean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
