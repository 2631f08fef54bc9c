"""kindle `TorchTrainer.train`: the batch data is moved to the trainer's device, the labels are not, and the loss mixes them.

Source: https://github.com/JeiKeiLim/kindle/pull/4
"Fix tensors on the same device issue on train and test." kindle (a YAML model builder) ships a
small `TorchTrainer`; with `device="cuda"` its loops did `model_out = self.model(data.to(self.device))`
and then `loss = self.criterion(model_out, labels)` with `labels` still on the CPU, so with a GPU
device the loss mixed a CUDA output and CPU labels. The PR moves both:
`data, labels = data.to(self.device), labels.to(self.device)`. Reduced: the YAML-built model by the
tutorial-sized CNN it describes, random CIFAR-shaped batches for the DataLoader, tqdm and the
`.item()` bookkeeping dropped; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
from typing import Union
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

class TorchTrainer:
    def __init__(self, model: nn.Module, criterion: nn.Module, optimizer: optim.Optimizer,
                 device: Union[str, torch.device] = "cpu", verbose: int = 1) -> None:
        if isinstance(device, str):
            device = torch.device(device)
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer
        self.verbose = verbose
        self.device = device

    def train(self, train_dataloader: DataLoader, n_epoch: int):
        for epoch in range(n_epoch):
            running_loss = 0.0
            for batch, (data, labels) in enumerate(train_dataloader):
                self.optimizer.zero_grad()
                model_out = self.model(data.to(self.device))
                loss = self.criterion(model_out, labels)
                loss.backward()
                self.optimizer.step()
                running_loss += loss.detach()
        return running_loss

model = nn.Sequential(                                  # Model("model.yaml"): the CIFAR-10 tutorial net
    nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
device = torch.device("meta")                           # "cuda" if torch.cuda.is_available() else "cpu"
model.to(device)
train_dl = DataLoader(TensorDataset(torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,))), batch_size=8)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
trainer = TorchTrainer(model, criterion, optimizer, device=device)
'''
CELL = '''
trainer.train(train_dl, n_epoch=1)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                self.optimizer.zero_grad()
                model_out = self.model(data.to(self.device))
""", """                data, labels = data.to(self.device), labels.to(self.device)
                self.optimizer.zero_grad()
                model_out = self.model(data)
""")
CLEAN = False
