"""RecBole `Random` model evaluated with negative sampling (`uni100`) on the GPU: `predict` returns `torch.rand(len(interaction))` on the CPU.

Source: https://github.com/RUCAIBox/RecBole/issues/1984
Training MovieLens-100K with Random (also ADMMSLIM, SLIMElastic) and `eval_args.mode = uni100` crashed
with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
In the negative-sampling evaluation the trainer writes the model's per-pair scores into a CUDA score
matrix (`scores[row_idx, col_idx] = origin_scores`), and these models computed their scores on the CPU;
PR #1997 creates them on `self.device` (the pre-fix `predict` line is reconstructed from the fixed
`torch.rand(len(interaction), device=self.device)`). Stand-in: GeneralRecommender/Random as in RecBole, the trainer's
`_neg_sample_batch_eval` with the scatter written as `index_put_`, one uni100 batch as a dict-backed
Interaction.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Interaction:
    def __init__(self, interaction):
        self.interaction = interaction
    def __getitem__(self, key):
        return self.interaction[key]
    def __len__(self):
        return self.interaction[next(iter(self.interaction))].shape[0]
    def to(self, device):
        return Interaction({k: v.to(device) for k, v in self.interaction.items()})

class GeneralRecommender(nn.Module):
    def __init__(self, config, dataset):
        super().__init__()
        self.USER_ID, self.ITEM_ID = config["USER_ID_FIELD"], config["ITEM_ID_FIELD"]
        self.n_users, self.n_items = dataset["n_users"], dataset["n_items"]
        self.device = config["device"]

class Random(GeneralRecommender):
    def __init__(self, config, dataset):
        super(Random, self).__init__(config, dataset)
        torch.manual_seed(config["seed"] + self.n_users + self.n_items)
        self.fake_loss = torch.nn.Parameter(torch.zeros(1))

    def forward(self):
        pass

    def calculate_loss(self, interaction):
        return torch.nn.Parameter(torch.zeros(1))

    def predict(self, interaction):
        return torch.rand(len(interaction)).squeeze(-1)

class Trainer:
    def __init__(self, config, model):
        self.config, self.model = config, model
        self.device = config["device"]
        self.tot_item_num = model.n_items

    def _neg_sample_batch_eval(self, batched_data):
        interaction, row_idx, positive_u, positive_i = batched_data
        origin_scores = self.model.predict(interaction.to(self.device))
        col_idx = interaction[self.config["ITEM_ID_FIELD"]].to(self.device)
        batch_user_num = positive_u.shape[0]
        scores = torch.full((batch_user_num, self.tot_item_num), -np.inf, device=self.device)
        scores.index_put_((row_idx.to(self.device), col_idx), origin_scores)   # scores[row_idx, col_idx] = origin_scores
        return interaction, scores, positive_u, positive_i

    @torch.no_grad()
    def evaluate(self, eval_data):
        self.model.eval()
        results = []
        for batched_data in eval_data:
            interaction, scores, positive_u, positive_i = self._neg_sample_batch_eval(batched_data)
            results.append(scores.topk(10, dim=-1).indices)
        return results

config = {"USER_ID_FIELD": "user_id", "ITEM_ID_FIELD": "item_id", "seed": 42,
          "device": torch.device("cuda:0"), "eval_args": {"mode": {"valid": "uni100", "test": "uni100"}}}
dataset = {"n_users": 944, "n_items": 1683}
model = Random(config, dataset).to(config["device"])
trainer = Trainer(config, model)
n_users_in_batch = 4
users = torch.arange(1, n_users_in_batch + 1).repeat_interleave(101)       # 1 positive + 100 sampled negatives
items = torch.randint(1, dataset["n_items"], (n_users_in_batch * 101,))
row_idx = torch.arange(n_users_in_batch).repeat_interleave(101)
valid_data = [(Interaction({"user_id": users, "item_id": items}), row_idx,
               torch.arange(n_users_in_batch), items.view(n_users_in_batch, 101).narrow(1, 0, 1).flatten())]
'''
CELL = '''
valid_result = trainer.evaluate(valid_data)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "device between self (cuda:0) and values (cpu)",
                "Index put requires the source and destination")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.rand(len(interaction)).squeeze(-1)",
                  "return torch.rand(len(interaction), device=self.device).squeeze(-1)")
CLEAN = False
