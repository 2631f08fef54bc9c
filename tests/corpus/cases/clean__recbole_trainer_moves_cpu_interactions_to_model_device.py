"""Look-alike: RecBole's dataloader yields CPU `Interaction` batches to a BPR model on the GPU; the trainer moves each one.

Source: https://github.com/RUCAIBox/RecBole/blob/master/recbole/trainer/trainer.py
RecBole's data flow keeps every batch on the CPU: the training dataloader yields `Interaction`
objects (a dict of user/item id tensors), and `Trainer._train_epoch` sends each to the model's
device with `interaction = interaction.to(self.device)` (Interaction.to moves every field) right
before `model.calculate_loss(interaction)`. The namespace's loader of CPU batches next to a GPU
model is by design. Stand-in: Interaction, the BPR model and the training epoch, reduced; the GPU
is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("meta")   # the GPU, simulated with meta

class Interaction:
    def __init__(self, interaction):
        self.interaction = interaction

    def __getitem__(self, index):
        return self.interaction[index]

    def __len__(self):
        return len(next(iter(self.interaction.values())))

    def to(self, device, selected_field=None):
        ret = {}
        for k in self.interaction:
            if selected_field is None or k in selected_field:
                ret[k] = self.interaction[k].to(device)
            else:
                ret[k] = self.interaction[k]
        return Interaction(ret)

class BPRLoss(nn.Module):
    def __init__(self, gamma=1e-10):
        super().__init__()
        self.gamma = gamma

    def forward(self, pos_score, neg_score):
        return -torch.log(self.gamma + torch.sigmoid(pos_score - neg_score)).mean()

class BPR(nn.Module):
    def __init__(self, n_users, n_items, embedding_size=64):
        super().__init__()
        self.USER_ID, self.ITEM_ID, self.NEG_ITEM_ID = "user_id", "item_id", "neg_item_id"
        self.user_embedding = nn.Embedding(n_users, embedding_size)
        self.item_embedding = nn.Embedding(n_items, embedding_size)
        self.loss = BPRLoss()

    def forward(self, user, item):
        return self.user_embedding(user), self.item_embedding(item)

    def calculate_loss(self, interaction):
        user = interaction[self.USER_ID]
        pos_item = interaction[self.ITEM_ID]
        neg_item = interaction[self.NEG_ITEM_ID]
        user_e, pos_e = self.forward(user, pos_item)
        neg_e = self.item_embedding(neg_item)
        pos_item_score, neg_item_score = torch.mul(user_e, pos_e).sum(dim=1), torch.mul(user_e, neg_e).sum(dim=1)
        return self.loss(pos_item_score, neg_item_score)

class Trainer:
    def __init__(self, config, model):
        self.device = config["device"]
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config["learning_rate"])

    def _train_epoch(self, train_data, epoch_idx):
        self.model.train()
        total_loss = None
        for batch_idx, interaction in enumerate(train_data):
            interaction = interaction.to(self.device)
            self.optimizer.zero_grad()
            loss = self.model.calculate_loss(interaction)
            total_loss = loss.detach() if total_loss is None else total_loss + loss.detach()
            loss.backward()
            self.optimizer.step()
        return total_loss

config = {"device": device, "learning_rate": 0.001}
n_users, n_items = 943, 1682                                     # ml-100k
model = BPR(n_users, n_items).to(config["device"])
trainer = Trainer(config, model)
g = torch.Generator().manual_seed(0)
train_data = [Interaction({"user_id": torch.randint(1, n_users, (256,), generator=g),
                           "item_id": torch.randint(1, n_items, (256,), generator=g),
                           "neg_item_id": torch.randint(1, n_items, (256,), generator=g)}) for _ in range(4)]
'''
CELL = '''
train_loss = trainer._train_epoch(train_data, epoch_idx=0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
