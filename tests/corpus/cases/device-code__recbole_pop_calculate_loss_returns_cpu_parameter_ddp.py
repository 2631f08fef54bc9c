"""RecBole's Pop model returns a fresh CPU `nn.Parameter` as its loss; under DDP the trainer adds the GPU `sync_loss`.

Source: https://github.com/RUCAIBox/RecBole/issues/1869
"Tensors Found on Different Devices, cuda:x and cpu!" at `trainer.py` L259 when running
`run_recbole.py --model Pop --nproc n`: `Pop.calculate_loss` ends with
`return torch.nn.Parameter(torch.zeros(1))`, a CPU tensor, and in DDP mode the trainer adds
`sync_grad_loss()` (a sum over the model's parameters on the GPU) to it. The reporter's fix is
`torch.nn.Parameter(torch.zeros(1)).to(self.device)` (PR #1873 moves the loss in the trainer).
Stand-in: Pop and the trainer's epoch loop with `single_spec=False` (no real process group);
the `.item()` bookkeeping and NaN check are left out, and the fix creates the
Parameter on the device (a CPU leaf moved to "meta" cannot take a gradient back); "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class Interaction(dict):
    def to(self, device):
        return Interaction({k: v.to(device) for k, v in self.items()})

class Pop(nn.Module):
    def __init__(self, config, n_items):
        super().__init__()
        self.ITEM_ID = config["ITEM_ID_FIELD"]
        self.device = config["device"]
        self.n_items = n_items
        self.item_cnt = torch.zeros(self.n_items, 1, dtype=torch.long, device=self.device, requires_grad=False)
        self.max_cnt = None
        self.fake_loss = torch.nn.Parameter(torch.zeros(1))
        self.other_parameter_name = ["item_cnt", "max_cnt"]

    def calculate_loss(self, interaction):
        item = interaction[self.ITEM_ID]
        self.item_cnt[item, :] = self.item_cnt[item, :] + 1
        self.max_cnt = torch.max(self.item_cnt, dim=0)[0]
        return torch.nn.Parameter(torch.zeros(1))

class Trainer:
    def __init__(self, config, model):
        self.config = config
        self.device = config["device"]
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config["learning_rate"])

    def sync_grad_loss(self):
        sync_loss = 0
        for params in self.model.parameters():
            sync_loss += torch.sum(params) * 0
        return sync_loss

    def _train_epoch(self, train_data, epoch_idx, loss_func=None):
        self.model.train()
        loss_func = loss_func or self.model.calculate_loss
        for batch_idx, interaction in enumerate(train_data):
            interaction = interaction.to(self.device)
            self.optimizer.zero_grad()
            sync_loss = 0
            if not self.config["single_spec"]:
                sync_loss = self.sync_grad_loss()
            loss = loss_func(interaction)
            (loss + sync_loss).backward()
            self.optimizer.step()

config = {"ITEM_ID_FIELD": "item_id", "device": torch.device("meta"), "learning_rate": 0.001,
          "single_spec": False}          # --nproc 2: DDP mode
model = Pop(config, n_items=50).to(config["device"])
trainer = Trainer(config, model)
train_data = [Interaction({"user_id": torch.randint(0, 20, (64,)), "item_id": torch.randint(0, 50, (64,))})
              for _ in range(3)]
'''
CELL = '''
trainer._train_epoch(train_data, epoch_idx=0)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "return torch.nn.Parameter(torch.zeros(1))",
    "return torch.nn.Parameter(torch.zeros(1, device=self.device))",
)
CLEAN = False
