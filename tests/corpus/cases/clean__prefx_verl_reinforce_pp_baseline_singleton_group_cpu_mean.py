"""Look-alike: veRL's REINFORCE++-baseline advantage uses `torch.tensor(0.0)` (CPU) as the mean of a one-response group.

Source: https://github.com/volcengine/verl/blob/main/verl/trainer/ppo/core_algos.py
`compute_reinforce_plus_plus_baseline_outcome_advantage` groups the GPU `scores` by prompt uid (a numpy
array), stacks each group on the GPU, but for a prompt with a single response stores
`id2mean[idx] = torch.tensor(0.0)`, a CPU 0-dim tensor, and later does
`scores[i] = scores[i] - id2mean[index[i]]` on GPU elements. CPU 0-dim operands are allowed, so it runs.
The final `verl_F.masked_whiten` call is left out (its unbiased-variance check reads a value); the GPU is
simulated by meta; the rest of the function is kept as in the file.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from collections import defaultdict
import numpy as np
import torch

def compute_reinforce_plus_plus_baseline_outcome_advantage(
    token_level_rewards: torch.Tensor, response_mask: torch.Tensor, index: np.ndarray, epsilon: float = 1e-6
):
    response_length = token_level_rewards.shape[-1]
    scores = token_level_rewards.sum(dim=-1)

    id2score = defaultdict(list)
    id2mean = {}

    with torch.no_grad():
        bsz = scores.shape[0]
        for i in range(bsz):
            id2score[index[i]].append(scores[i])
        for idx in id2score:
            if len(id2score[idx]) == 1:
                id2mean[idx] = torch.tensor(0.0)
            elif len(id2score[idx]) > 1:
                id2mean[idx] = torch.mean(torch.stack(id2score[idx]))
            else:
                raise ValueError(f"no score in prompt index: {idx}")
        for i in range(bsz):
            scores[i] = scores[i] - id2mean[index[i]]

        scores = scores.unsqueeze(-1).tile([1, response_length]) * response_mask

    return scores, scores

device = torch.device("meta")   # the GPU, simulated with meta
bsz, response_length = 7, 12
token_level_rewards = torch.zeros(bsz, response_length, device=device)
token_level_rewards[:, -1] = torch.rand(bsz).to(device)
response_mask = torch.ones(bsz, response_length, dtype=torch.int64, device=device)
# three prompts with 3 responses each would be usual; the last prompt got a single response
index = np.array(["uid-a", "uid-a", "uid-a", "uid-b", "uid-b", "uid-b", "uid-c"], dtype=object)
'''
CELL = '''
advantages, returns = compute_reinforce_plus_plus_baseline_outcome_advantage(
    token_level_rewards=token_level_rewards, response_mask=response_mask, index=index
)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
