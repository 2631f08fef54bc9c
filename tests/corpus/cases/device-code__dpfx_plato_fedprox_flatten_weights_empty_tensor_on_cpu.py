"""Plato FedProx example on a GPU server: `flatten_weights_from_model` starts from `torch.tensor([])` on the CPU.

Source: https://github.com/TL-System/plato/pull/161
The FedProx example (PR #159) crashed on a GPU server; the FedProx loss flattens the model's
weights into `weights = torch.tensor([], requires_grad=False)` and `torch.cat`s every parameter onto
it, so with the model on cuda the first `cat` mixes devices. The fix changes that line to
`torch.tensor([], requires_grad=False).to(Config().device())`. Stand-in: `Config` returns the device,
the basic trainer's loop reduced to one epoch over a list of CPU batches; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Config:
    def device(self):
        return torch.device("meta")   # "cuda" on the GPU server

def flatten_weights_from_model(model):
    """ Return the weights of the given model as a 1-D tensor """
    weights = torch.tensor([], requires_grad=False)
    for param in model.parameters():
        weights = torch.cat((weights, torch.flatten(param)))
    return weights

class FedProxLocalObjective:
    def __init__(self, model):
        self.model = model
        self.init_global_weights = flatten_weights_from_model(model).detach()

    def compute_objective(self, outputs, labels):
        current_weights = flatten_weights_from_model(self.model)
        parameter_mu = 1
        proximal_term = parameter_mu / 2 * torch.linalg.norm(current_weights - self.init_global_weights, ord=2)
        local_function = nn.CrossEntropyLoss()
        return local_function(outputs, labels) + proximal_term

class Trainer:
    def __init__(self, model):
        self.model = model

    def loss_criterion(self, model):
        local_obj = FedProxLocalObjective(model)
        return local_obj.compute_objective

    def train_model(self, config, trainset):
        self.model.to(Config().device())
        self.model.train()
        loss_criterion = self.loss_criterion(self.model)
        optimizer = torch.optim.SGD(self.model.parameters(), lr=config["learning_rate"])
        for examples, labels in trainset:
            examples, labels = examples.to(Config().device()), labels.to(Config().device())
            optimizer.zero_grad()
            outputs = self.model(examples)
            loss = loss_criterion(outputs, labels)
            loss.backward()
            optimizer.step()

lenet = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 64), nn.ReLU(), nn.Linear(64, 10))
trainer = Trainer(lenet)
config = {"learning_rate": 0.01}
trainset = [(torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(2)]
'''
CELL = '''
trainer.train_model(config, trainset)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["flatten_weights_from_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("weights = torch.tensor([], requires_grad=False)",
                  "weights = torch.tensor([], requires_grad=False).to(Config().device())")
CLEAN = False
