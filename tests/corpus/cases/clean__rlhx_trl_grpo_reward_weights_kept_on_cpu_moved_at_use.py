"""TRL GRPO: `reward_weights` is a CPU tensor by design and is moved to the rewards' device where it is used.

Source: https://github.com/huggingface/trl/blob/main/trl/trainer/grpo_trainer.py
(`GRPOTrainer.__init__` and `_prepare_inputs`, as of commit 9b67eea47)
`__init__` builds `self.reward_weights = torch.tensor(args.reward_weights, dtype=torch.float32)` (or
`torch.ones(len(reward_funcs))`) without a device; `_prepare_inputs` scores the completions with
Python reward functions into `torch.tensor(output_reward_func, dtype=torch.float32, device=device)`,
and weights them with `self.reward_weights.to(device).unsqueeze(0)` before the group-normalized
advantages. Look-alike: a CPU tensor on the trainer next to cuda:0 rewards; it runs.
Stand-ins: the trainer reduced to the reward/advantage part; the column assignment
`rewards_per_func[:, i] = ...` is written as a `torch.stack` of the columns.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch

def format_reward(prompts, completions, **kwargs):
    return [1.0 if c.strip().endswith("</answer>") else 0.0 for c in completions]

def length_reward(prompts, completions, **kwargs):
    return [min(len(c) / 100.0, 1.0) for c in completions]

class Accelerator:
    device = torch.device("cuda:0")
    process_index = 0

def gather(t):
    return t

class GRPOTrainer:
    def __init__(self, reward_funcs, args):
        self.reward_funcs = reward_funcs
        self.num_generations = args.num_generations
        self.accelerator = Accelerator()
        if args.reward_weights is not None:
            self.reward_weights = torch.tensor(args.reward_weights, dtype=torch.float32)
        else:
            self.reward_weights = torch.ones(len(reward_funcs), dtype=torch.float32)

    def score_completions(self, prompts, completions):
        device = self.accelerator.device
        columns = []
        for reward_func in self.reward_funcs:
            output_reward_func = reward_func(prompts=prompts, completions=completions)
            columns.append(torch.tensor(output_reward_func, dtype=torch.float32, device=device))
        rewards_per_func = torch.stack(columns, dim=1)
        rewards_per_func = gather(rewards_per_func)

        # Apply weights to each reward function's output and sum
        rewards = (rewards_per_func * self.reward_weights.to(device).unsqueeze(0)).sum(dim=1)

        mean_grouped_rewards = rewards.view(-1, self.num_generations).mean(dim=1)
        std_grouped_rewards = rewards.view(-1, self.num_generations).std(dim=1)
        mean_grouped_rewards = mean_grouped_rewards.repeat_interleave(self.num_generations, dim=0)
        std_grouped_rewards = std_grouped_rewards.repeat_interleave(self.num_generations, dim=0)
        advantages = (rewards - mean_grouped_rewards) / (std_grouped_rewards + 1e-4)
        return rewards, advantages

training_args = SimpleNamespace(num_generations=4, reward_weights=[1.0, 0.5])
trainer = GRPOTrainer(reward_funcs=[format_reward, length_reward], args=training_args)
prompts = ["Solve 3 + 4."] * 4 + ["Name a prime above 10."] * 4
completions = ["<answer>7</answer>", "7", "<answer>seven</answer>", "It is 7",
               "<answer>11</answer>", "13", "<answer>17</answer>", "eleven"]
'''
CELL = '''
rewards, advantages = trainer.score_completions(prompts, completions)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
