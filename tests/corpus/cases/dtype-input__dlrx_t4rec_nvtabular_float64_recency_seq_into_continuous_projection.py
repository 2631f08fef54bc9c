"""Transformers4Rec tutorial: a float64 continuous sequence feature from the NVTabular ETL reaches the float32 projection layer.

Source: https://github.com/NVIDIA-Merlin/NVTabular/issues/1738
Running the session-based example notebooks, training the XLNet model failed in `F.linear` with
"expected scalar type Float but found Double": the `product_recency_days_log_norm-list_seq` column the
previous ETL notebook wrote is float64, and the data loader hands it to the model as a double tensor
while the model's continuous-feature projection is float32. The user fixed it by casting the column
to a smaller dtype in the ETL (`>> nvt.ops.ReduceDtypeSize()`), i.e. feeding float32.
Stand-in: a reduced `TabularSequenceFeatures` (item-id embedding + a Linear projection of the
continuous sequence feature) and one batch dict as the NVTabular loader yields it.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TabularSequenceFeatures(nn.Module):
    def __init__(self, item_cardinality=100, d_model=16, continuous=("product_recency_days_log_norm-list_seq",)):
        super().__init__()
        self.item_emb = nn.Embedding(item_cardinality, d_model, padding_idx=0)
        self.continuous = list(continuous)
        self.continuous_projection = nn.Linear(len(self.continuous), d_model)

    def forward(self, inputs):
        item = self.item_emb(inputs["item_id-list_seq"])
        cont = torch.stack([inputs[name] for name in self.continuous], dim=-1)
        return item + self.continuous_projection(cont)

class NextItemModel(nn.Module):
    def __init__(self, item_cardinality=100, d_model=16):
        super().__init__()
        self.inputs = TabularSequenceFeatures(item_cardinality, d_model)
        self.body = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model, 2, 32, batch_first=True), 1)
        self.head = nn.Linear(d_model, item_cardinality)

    def forward(self, batch):
        return self.head(self.body(self.inputs(batch)))

model = NextItemModel()
# one batch from the NVTabular data loader over the parquet written by the ETL notebook
recency = np.log1p(np.random.rand(8, 20) * 30)          # float64 column in the parquet
batch = {
    "item_id-list_seq": torch.randint(1, 100, (8, 20)),
    "product_recency_days_log_norm-list_seq": torch.from_numpy(recency),
}
labels = torch.randint(1, 100, (8, 20))
loss_fn = nn.CrossEntropyLoss()
'''
CELL = '''
logits = model(batch)
loss = loss_fn(logits.reshape(-1, 100), labels.reshape(-1))
loss.backward()
'''
EXPECT_ERROR = ("mat1 and mat2", "expected scalar type", "same dtype")
CULPRITS = ["batch['product_recency_days_log_norm-list_seq']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["product_recency_days_log_norm-list_seq"] = batch["product_recency_days_log_norm-list_seq"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
