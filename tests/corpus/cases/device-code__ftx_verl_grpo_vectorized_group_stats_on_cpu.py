"""verl GRPO (vectorized outcome advantage): the per-group mean/std are built on the CPU while the scores are on the GPU.

Source: https://github.com/verl-project/verl/pull/4962
`trainer.fit()` -> `compute_advantage` -> `compute_grpo_vectorized_outcome_advantage` failed at
`scalars = (scores - mean_g[g]) / (std_g[g] + epsilon)` with "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu!". The helper `group_mean_std` takes a
`device` argument that the caller did not pass, so its group sums/counts are allocated on the CPU;
the PR passes `device=scores.device`. Stand-in: the two functions reduced to sums/counts with
`index_add_` and `index_select` (the simulator cannot index a fake cuda tensor with `[]`), so the
mismatch surfaces one step earlier, when the CPU `sums` receive the cuda scores; a
`DataProto`-like batch dict holds the rollout rewards, mask and group index on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def group_mean_std(scores, gidx, num_groups, eps=1e-6, device=None):
    """Per-group mean and (unbiased) std of `scores` for integer group ids `gidx`."""
    sums = torch.zeros(num_groups, dtype=scores.dtype, device=device)
    sq_sums = torch.zeros(num_groups, dtype=scores.dtype, device=device)
    counts = torch.zeros(num_groups, dtype=scores.dtype, device=device)
    sums.index_add_(0, gidx, scores)
    sq_sums.index_add_(0, gidx, scores * scores)
    counts.index_add_(0, gidx, torch.ones_like(scores))
    mean = sums / counts.clamp(min=1)
    var = (sq_sums - counts * mean * mean) / (counts - 1).clamp(min=1)
    return mean, var.clamp(min=0).sqrt()

def compute_grpo_vectorized_outcome_advantage(token_level_rewards, response_mask, index,
                                              epsilon=1e-6, norm_adv_by_std_in_grpo=True):
    with torch.no_grad():
        scores = token_level_rewards.sum(dim=-1)
        g = index
        num_groups = 4
        mean_g, std_g = group_mean_std(scores, g, num_groups, eps=epsilon)
        if norm_adv_by_std_in_grpo:
            scalars = (scores - mean_g.index_select(0, g)) / (std_g.index_select(0, g) + epsilon)
        else:
            scalars = scores - mean_g.index_select(0, g)
        advantages = scalars.unsqueeze(-1) * response_mask
        return advantages, advantages

device = torch.device("cuda:0")
n_rollouts, resp_len = 8, 6
batch = {
    "token_level_rewards": torch.rand(n_rollouts, resp_len).to(device),
    "response_mask": torch.ones(n_rollouts, resp_len).to(device),
    "uid": torch.arange(n_rollouts).div(2, rounding_mode="floor").to(device),   # 4 prompts x 2 samples
}
'''
CELL = '''
advantages, returns = compute_grpo_vectorized_outcome_advantage(
    token_level_rewards=batch["token_level_rewards"],
    response_mask=batch["response_mask"],
    index=batch["uid"],
)
'''
EXPECT_ERROR = ("expected to be in the same device", "Expected all tensors to be on the same device")
CULPRITS = ["sums"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mean_g, std_g = group_mean_std(scores, g, num_groups, eps=epsilon)",
                  "mean_g, std_g = group_mean_std(scores, g, num_groups, eps=epsilon, device=scores.device)")
CLEAN = False
