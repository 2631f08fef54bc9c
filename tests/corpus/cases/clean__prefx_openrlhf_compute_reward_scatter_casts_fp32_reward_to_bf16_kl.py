"""Look-alike: OpenRLHF compute_reward scatters the fp32 reward into a bf16 KL-shaped tensor, casting inside.

Source: https://github.com/OpenRLHF/OpenRLHF/blob/v0.5.7/openrlhf/models/utils.py
`compute_reward(r, kl_coef, kl, action_mask=...)` puts each sequence's scalar reward at its last
action token with `torch.zeros_like(kl).scatter_(dim=1, index=eos_indices, src=r.unsqueeze(1).to(kl.dtype))`.
`scatter_` demands that `src` has the destination's dtype; the reward model returns fp32 rewards
while the KL comes from bf16 log-probs, and the `.to(kl.dtype)` inside makes it run.
The function is kept as in the file; the inputs stand in for one micro-batch of the experience maker.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Optional, Tuple, Union
import torch

def compute_reward(
    r: Union[torch.Tensor, float],
    kl_coef: float,
    kl: Union[torch.Tensor, list],
    action_mask: Optional[torch.Tensor] = None,
    num_actions: Optional[Union[int, list]] = None,
    reward_clip_range: Tuple[float, float] = None,
) -> Union[torch.Tensor, list]:
    if kl_coef <= 0.0:
        kl_coef = 0.0

    if reward_clip_range:
        r = r.clamp(min=reward_clip_range[0], max=reward_clip_range[1])

    if action_mask is not None:
        kl_reward = -kl_coef * kl
        # The following code is equivalent to:
        #
        # last_reward = torch.zeros_like(kl)
        # for i in range(last_reward.size(0)):
        #     for t in reversed(range(last_reward.size(1))):
        #         if action_mask[i][t] > 0.5:
        #             last_reward[i][t] = r[i]
        #             break
        #
        eos_indices = action_mask.size(1) - 1 - action_mask.long().fliplr().argmax(dim=1, keepdim=True)
        last_reward = torch.zeros_like(kl).scatter_(dim=1, index=eos_indices, src=r.unsqueeze(1).to(kl.dtype))

        reward = last_reward + kl_reward
    else:
        reward = []
        for i, (kl_seg, action_len) in enumerate(zip(kl, num_actions)):
            kl_reward = -kl_coef * kl_seg
            kl_reward[action_len - 1] += r[i]
            reward.append(kl_reward)

    return reward

device = torch.device("cuda:0")
action_log_probs = torch.randn(4, 16).to(torch.bfloat16).to(device)
base_action_log_probs = torch.randn(4, 16).to(torch.bfloat16).to(device)
action_mask = torch.ones(4, 16, dtype=torch.bool, device=device)
r = torch.randn(4).to(device)                      # reward model output, float32
kl = (action_log_probs - base_action_log_probs) * action_mask   # stays bfloat16
init_kl_coef = 0.01
'''
CELL = '''
reward = compute_reward(r, init_kl_coef, kl, action_mask=action_mask, reward_clip_range=(-10.0, 10.0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
