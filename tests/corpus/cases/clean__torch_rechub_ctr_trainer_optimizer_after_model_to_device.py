"""torch-rechub CTRTrainer after the fix: the model is moved first, then its optimizer is built.

Source: https://github.com/datawhalechina/torch-rechub/pull/26
"fix trainer optimizer bug - optimizer init should after model.to(device)": the patched `CTRTrainer`
does `self.model.to(self.device)` before `optimizer_fn(self.model.parameters(), **optimizer_params)`.
Look-alike: a CTR training step on cuda whose batch dict is built on the CPU and moved key by key
inside the loop (as the trainer does), with float labels for BCE. The model is a small
DeepFM-like stand-in.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class DeepFM(nn.Module):
    def __init__(self, n_sparse=4, vocab=50, embed_dim=8, n_dense=3):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(vocab, embed_dim) for _ in range(n_sparse)])
        self.linear = nn.Linear(n_sparse * embed_dim + n_dense, 1)
        self.mlp = nn.Sequential(nn.Linear(n_sparse * embed_dim + n_dense, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x_dict):
        sparse = [emb(x_dict[f"c{i}"]) for i, emb in enumerate(self.embeddings)]
        x = torch.cat(sparse + [x_dict["dense"]], dim=1)
        return torch.sigmoid(self.linear(x) + self.mlp(x)).squeeze(1)

class CTRTrainer:
    def __init__(self, model, optimizer_fn=torch.optim.Adam, optimizer_params=None, device="cpu"):
        self.device = torch.device(device)
        self.model = model
        self.model.to(self.device)
        self.optimizer = optimizer_fn(self.model.parameters(), **(optimizer_params or {"lr": 1e-3}))
        self.criterion = nn.BCELoss()

    def train_one_step(self, x_dict, y):
        x_dict = {k: v.to(self.device) for k, v in x_dict.items()}
        y = y.to(self.device)
        y_pred = self.model(x_dict)
        loss = self.criterion(y_pred, y.float())
        for p in self.model.parameters():    # stand-in for loss.backward()
            p.grad = torch.zeros_like(p)
        self.optimizer.step()
        return loss

model = DeepFM()
ctr_trainer = CTRTrainer(model, optimizer_params={"lr": 1e-3, "weight_decay": 1e-5}, device="cuda:0")
x_dict = {f"c{i}": torch.randint(0, 50, (16,)) for i in range(4)}
x_dict["dense"] = torch.randn(16, 3)
y = torch.randint(0, 2, (16,))
'''
CELL = '''
loss = ctr_trainer.train_one_step(x_dict, y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
