"""pytorch_tabular `TabularModel.predict` with a GPU model: CPU batches are moved to `model.device` and predictions come back on the CPU.

Source: https://github.com/pytorch-tabular/pytorch_tabular/blob/main/src/pytorch_tabular/tabular_model.py
`_generate_predictions` loops over the inference DataLoader, does `batch[k] = v.to(model.device)`
for every tensor in the batch dict, runs `model.predict(batch)` and appends `y_hat.detach().cpu()`,
so the returned predictions are CPU tensors even though the model lives on the GPU, and comparing
them with the CPU targets of the test frame is fine.
Look-alike: a cuda model, CPU batch dicts and CPU targets side by side; nothing mixes.
Stand-in: CategoryEmbeddingModel reduced to embeddings + MLP backbone + linear head; the
DataLoader replaced by a list of batch dicts.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class CategoryEmbeddingModel(nn.Module):
    """Stand-in: pytorch_tabular's CategoryEmbeddingModel (LightningModule) reduced."""
    def __init__(self, continuous_dim, cat_cardinalities, emb_dim=4, layers=(64, 32), output_dim=1):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(card, emb_dim) for card in cat_cardinalities])
        dims = [continuous_dim + emb_dim * len(cat_cardinalities), *layers]
        blocks = []
        for a, b in zip(dims[:-1], dims[1:]):
            blocks += [nn.Linear(a, b), nn.ReLU()]
        self.backbone = nn.Sequential(*blocks)
        self.head = nn.Linear(dims[-1], output_dim)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, x):
        embs = [emb(x["categorical"].select(1, i)) for i, emb in enumerate(self.embeddings)]
        feats = torch.cat([x["continuous"], *embs], dim=1)
        y_hat = self.head(self.backbone(feats))
        return {"logits": y_hat}

    def predict(self, x, ret_model_output=False):
        ret_value = self.forward(x)
        return (ret_value["logits"], ret_value) if ret_model_output else ret_value["logits"]

def _generate_predictions(model, inference_dataloader, ret_logits=False):
    point_predictions = []
    for batch in inference_dataloader:
        for k, v in batch.items():
            if isinstance(v, list) and (len(v) == 0):
                continue  # Skipping empty list
            batch[k] = v.to(model.device)
        y_hat, ret_value = model.predict(batch, ret_model_output=True)
        point_predictions.append(y_hat.detach().cpu())
    point_predictions = torch.cat(point_predictions, dim=0)
    if point_predictions.ndim == 1:
        point_predictions = point_predictions.unsqueeze(-1)
    return point_predictions

model = CategoryEmbeddingModel(continuous_dim=5, cat_cardinalities=[4, 7]).to("cuda:0")
model.eval()
n = 300
test_cont = torch.randn(n, 5)
test_cat = torch.stack([torch.randint(0, 4, (n,)), torch.randint(0, 7, (n,))], dim=1)
y_test = torch.randn(n, 1)
inference_dataloader = [
    {"continuous": test_cont[i:i + 128], "categorical": test_cat[i:i + 128], "target": y_test[i:i + 128]}
    for i in range(0, n, 128)
]
'''
CELL = '''
with torch.no_grad():
    pred = _generate_predictions(model, inference_dataloader)
rmse = torch.sqrt(((pred - y_test) ** 2).mean())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
