"""Look-alike: DGL-LifeSci MoleculeNet classification moves graph, node features, labels and masks to the device per batch.

Source: https://github.com/awslabs/dgl-lifesci/blob/master/examples/property_prediction/moleculenet/classification.py
The dataset keeps featurised molecules on the CPU; `run_a_train_epoch` does
`labels, masks = labels.to(args['device']), masks.to(args['device'])`, `predict()` pops
`bg.ndata['h']` and moves it, and the `BCEWithLogitsLoss(pos_weight=..., reduction='none')` is built
with `pos_weight.to(args['device'])`; the masked loss mixes the float mask with the float loss.
Stand-in: a batched "graph" as a dict of CPU tensors and a readout model; meta as the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class GCNPredictor(nn.Module):
    def __init__(self, in_feats=74, hidden=32, n_tasks=12):
        super().__init__()
        self.gnn = nn.Linear(in_feats, hidden)
        self.predict = nn.Linear(hidden, n_tasks)
    def forward(self, bg, node_feats):
        h = torch.relu(self.gnn(node_feats))
        hg = torch.stack([h[s:e].mean(0) for s, e in bg["graph_ranges"]])
        return self.predict(hg)

def make_batch(n_mols=4, atoms=5, n_tasks=12):
    bg = {"ndata": {"h": torch.randn(n_mols * atoms, 74)},
          "graph_ranges": [(i * atoms, (i + 1) * atoms) for i in range(n_mols)]}
    labels = torch.randint(0, 2, (n_mols, n_tasks)).float()
    masks = (torch.rand(n_mols, n_tasks) > 0.2).float()
    return ["C" * n_mols], bg, labels, masks

def predict(args, model, bg):
    node_feats = bg["ndata"].pop("h").to(args["device"])
    return model(bg, node_feats)

args = {"device": torch.device("meta"), "n_tasks": 12}
model = GCNPredictor(n_tasks=args["n_tasks"]).to(args["device"])
pos_weight = torch.full((args["n_tasks"],), 3.0)
loss_criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight.to(args["device"]), reduction="none")
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = [make_batch() for _ in range(2)]
'''
CELL = '''
model.train()
for batch_id, batch_data in enumerate(train_loader):
    smiles, bg, labels, masks = batch_data
    labels, masks = labels.to(args["device"]), masks.to(args["device"])
    logits = predict(args, model, bg)
    loss = (loss_criterion(logits, labels) * (masks != 0).float()).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
