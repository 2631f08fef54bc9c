"""Look-alike: OpenRLHF PolicyLoss mixes bf16 action log-probs, fp32 advantages and a bool action mask.

Source: https://github.com/OpenRLHF/OpenRLHF/blob/v0.5.7/openrlhf/models/loss.py
`PolicyLoss.forward` computes `ratio = (log_probs - old_log_probs).exp()`, `surr1 = ratio * advantages`,
the clipped `surr2`, and `masked_mean(loss, action_mask, dim=-1).mean()` with
`masked_mean = (tensor * mask).sum(axis=dim) / mask.sum(axis=dim)` (openrlhf/models/utils.py).
In training the actor's log-probs come from bf16 logits, the advantages from the fp32 GAE pass, and
`action_mask` is a bool tensor: type promotion handles every product, nothing is mismatched.
The loss module and masked_mean are kept as in the files; the tensors stand in for one micro-batch.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Optional
import torch
import torch.nn as nn

def masked_mean(tensor: torch.Tensor, mask: Optional[torch.Tensor], dim: int = None) -> torch.Tensor:
    if mask is None:
        return tensor.mean(axis=dim)
    return (tensor * mask).sum(axis=dim) / mask.sum(axis=dim)

class PolicyLoss(nn.Module):
    """
    Policy Loss for PPO
    """

    def __init__(self, clip_eps: float = 0.2) -> None:
        super().__init__()
        self.clip_eps = clip_eps

    def forward(
        self,
        log_probs: torch.Tensor,
        old_log_probs: torch.Tensor,
        advantages: torch.Tensor,
        action_mask: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        ratio = (log_probs - old_log_probs).exp()
        surr1 = ratio * advantages
        surr2 = ratio.clamp(1 - self.clip_eps, 1 + self.clip_eps) * advantages
        loss = -torch.min(surr1, surr2)
        loss = masked_mean(loss, action_mask, dim=-1).mean()
        return loss

class ValueLoss(nn.Module):
    """
    Value Loss for PPO
    """

    def __init__(self, clip_eps: float = None) -> None:
        super().__init__()
        self.clip_eps = clip_eps

    def forward(self, values, old_values, returns, action_mask=None):
        if self.clip_eps is not None:
            values_clipped = old_values + (values - old_values).clamp(-self.clip_eps, self.clip_eps)
            surr1 = (values_clipped - returns) ** 2
            surr2 = (values - returns) ** 2
            loss = torch.max(surr1, surr2)
        else:
            loss = (values - returns) ** 2
        loss = masked_mean(loss, action_mask, dim=-1).mean()
        return 0.5 * loss

device = torch.device("cuda:0")
actor_loss_fn = PolicyLoss(clip_eps=0.2)
critic_loss_fn = ValueLoss(clip_eps=0.2)
B, A = 4, 24
action_log_probs = torch.randn(B, A).to(device=device, dtype=torch.bfloat16)       # from bf16 logits
old_action_log_probs = torch.randn(B, A).to(device=device, dtype=torch.bfloat16)
advantages = torch.randn(B, A).to(device)                                          # fp32 GAE
values = torch.randn(B, A).to(device=device, dtype=torch.bfloat16)                 # critic head, bf16
old_values = torch.randn(B, A).to(device)
returns = torch.randn(B, A).to(device)
action_mask = torch.ones(B, A, dtype=torch.bool, device=device)
'''
CELL = '''
actor_loss = actor_loss_fn(action_log_probs, old_action_log_probs, advantages, action_mask=action_mask)
critic_loss = critic_loss_fn(values, old_values, returns, action_mask=action_mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
