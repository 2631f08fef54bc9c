"""FedPruning (FedML-based) classification trainer: `nn.CrossEntropyLoss()` gets labels that are not int64.

Source: https://github.com/FedPruning/FedPruning/issues/22
The reporter hit an error from `nn.CrossEntropyLoss()` in
`api/standalone/fedtinyclean/my_model_trainer_classification.py` and fixed it by adding
`labels = labels.long()` before every loss call. The client's data loader yields labels built from
NumPy arrays that are not int64 (int32 here, NumPy's default integer on Windows), and the trainer
only moves them to the device. Stand-in: FedML's ModelTrainer reduced to `train`, a small CNN,
a list of (x, labels) batches on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn

class MyModelTrainer:
    def __init__(self, model, args=None):
        self.model = model
        self.id = 0
        self.args = args

    def train(self, train_data, device, args):
        model = self.model
        model.to(device)
        model.train()
        criterion = nn.CrossEntropyLoss().to(device)
        optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, self.model.parameters()), lr=args.lr)
        epoch_loss = []
        for epoch in range(args.epochs):
            batch_loss = []
            for batch_idx, (x, labels) in enumerate(train_data):
                x, labels = x.to(device), labels.to(device)
                model.zero_grad()
                log_probs = model(x)
                loss = criterion(log_probs, labels)
                loss.backward()
                optimizer.step()
                batch_loss.append(loss.item())
            epoch_loss.append(sum(batch_loss) / len(batch_loss))

cnn = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
trainer = MyModelTrainer(cnn)
train_data = [(torch.randn(8, 3, 32, 32), torch.from_numpy(np.random.randint(0, 10, size=8).astype(np.int32)))
              for _ in range(2)]
device = torch.device("cpu")
args = SimpleNamespace(lr=0.01, epochs=1)
'''
CELL = '''
trainer.train(train_data, device, args)
'''
EXPECT_ERROR = ("expected scalar type Long", "expected target dtype to be Long")
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("x, labels = x.to(device), labels.to(device)",
                  "x, labels = x.to(device), labels.to(device).long()")
CLEAN = False
