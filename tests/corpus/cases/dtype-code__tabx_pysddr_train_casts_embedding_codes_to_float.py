"""PySDDR with an `nn.Embedding` deep part: `Sddr.train` casts every input batch with `.float()`, so the categorical codes reach the embedding as floats.

Source: https://github.com/HelmholtzAI-Consultants-Munich/PySDDR/issues/3
A user put a label-encoded categorical column (`tumor_size`, breast-cancer table) into the DNN part
of a PySDDR formula, with a network that starts with `nn.Embedding`, and training failed with
"Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but
got torch.FloatTensor instead (while checking arguments for embedding)". The maintainers' fix for
issue #3 (commit 16140e3) removes the blanket `.float()` in the loop that sends each part of the
batch's datadict to the device in `Sddr.train`, so integer columns keep their integer dtype.
Stand-in: `Sddr.train` reduced to one epoch over the batches, `SddrFormulaNet.forward` reduced to
the structured head plus the deep head over the user's network, Bernoulli log-loss; the prepared
batches hold the int64 codes as PrepareData leaves them after the fix. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class SddrFormulaNet(nn.Module):
    """Stand-in for sddr.sddrnetwork.SddrFormulaNet (no orthogonalization)."""
    def __init__(self, deep_models_dict, deep_shapes, struct_shapes, p=0.0):
        super().__init__()
        self.deep_models_dict = deep_models_dict
        for key, value in deep_models_dict.items():
            self.add_module(key, value)
        self.p = p
        self.deep_head = nn.Linear(sum(deep_shapes.values()), 1, bias=False)
        self.structured_head = nn.Linear(struct_shapes, 1, bias=False)

    def forward(self, datadict, training=True):
        X = datadict["structured"]
        Utilde = torch.cat([net(datadict[key]) for key, net in self.deep_models_dict.items()], dim=1)
        Utilde = nn.functional.dropout(Utilde, p=self.p, training=training)
        deep_pred = self.deep_head(Utilde)
        structured_pred = self.structured_head(X)
        self.logits = structured_pred + deep_pred
        return self.logits

    def get_log_loss(self, target):
        return nn.functional.binary_cross_entropy_with_logits(self.logits, target, reduction="none")

class Sddr(object):
    """Stand-in for sddr.Sddr: the training loop that sends each batch part to the device."""
    def __init__(self, net, device=torch.device("cpu"), lr=0.01):
        self.net = net.to(device)
        self.device = device
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)

    def train(self, train_loader, epochs=1):
        for epoch in range(epochs):
            self.net.train()
            self.epoch_train_loss = 0
            for batch in train_loader:
                target = batch["target"].float().to(self.device)
                datadict = batch["datadict"]
                # send each input batch to the current device
                for param in datadict.keys():
                    for data_part in datadict[param].keys():
                        datadict[param][data_part] = datadict[param][data_part].float().to(self.device)
                self.optimizer.zero_grad()
                output = self.net(datadict["logits"])
                loss = torch.mean(self.net.get_log_loss(target))
                loss.backward()
                self.optimizer.step()
                self.epoch_train_loss += loss.item()

# the user's network for the label-encoded `tumor_size` column (11 levels)
class TumorSizeEmbedding(nn.Module):
    def __init__(self, n_levels=11, dim=4):
        super().__init__()
        self.embedding = nn.Embedding(n_levels, dim)
        self.fc = nn.Linear(dim, 4)

    def forward(self, x):
        return torch.relu(self.fc(self.embedding(x[:, 0])))

rng = np.random.default_rng(0)
n = 64
age = rng.integers(20, 80, size=(n, 1)).astype(np.float32)
tumor_size = rng.integers(0, 11, size=(n, 1))                 # LabelEncoder codes, int64
y = rng.integers(0, 2, size=(n, 1))
train_loader = [{
    "target": torch.from_numpy(y[i:i + 16]),
    "datadict": {"logits": {
        "structured": torch.from_numpy((age[i:i + 16] - 50.0) / 15.0),
        "dnn": torch.from_numpy(tumor_size[i:i + 16]),
    }},
} for i in range(0, n, 16)]

net = SddrFormulaNet({"dnn": TumorSizeEmbedding()}, deep_shapes={"dnn": 4}, struct_shapes=1)
sddr = Sddr(net)
'''
CELL = '''
sddr.train(train_loader, epochs=1)
'''
EXPECT_ERROR = "'indices' to have one of the following scalar types: Long, Int"
CULPRITS = ["sddr"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("datadict[param][data_part] = datadict[param][data_part].float().to(self.device)",
                  "datadict[param][data_part] = datadict[param][data_part].to(self.device)")
CLEAN = False
