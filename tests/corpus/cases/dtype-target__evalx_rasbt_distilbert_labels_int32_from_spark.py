"""Fine-tuning DistilBERT on IMDb: `batch['labels']` is int32 because the sentiment column came from Spark as int32.

Source: https://github.com/rasbt/machine-learning-book/issues/192
Running the chapter-16 fine-tuning loop, the user read the CSV through Spark and converted to pandas;
`outputs = model(input_ids, attention_mask=attention_mask, labels=labels)` then failed with
"nll_loss_forward_reduce_cuda_kernel_2d_index not implemented for 'Int'". The author: the expected
column type is int64 (the labels must be a LongTensor for the cross-entropy inside the model).
Stand-in: a sequence classifier computing CrossEntropyLoss on `labels` like the HF head, the IMDb
Dataset building its dict batch from the dataframe column, on the CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

class IMDbDataset(Dataset):
    def __init__(self, encodings, labels):
        self.encodings, self.labels = encodings, labels

    def __getitem__(self, idx):
        item = {key: torch.tensor(val[idx]) for key, val in self.encodings.items()}
        item['labels'] = torch.tensor(self.labels[idx])
        return item

    def __len__(self):
        return len(self.labels)

class DistilBertForSequenceClassification(nn.Module):
    def __init__(self, vocab=1000, dim=32, num_labels=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.pre_classifier = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        h = self.embeddings(input_ids) * attention_mask[..., None]
        h = h.sum(1) / attention_mask.sum(1, keepdim=True)
        logits = self.classifier(torch.relu(self.pre_classifier(h)))
        loss = nn.CrossEntropyLoss()(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}

DEVICE = torch.device("cpu")     # "cuda" in the report
train_encodings = {"input_ids": np.random.randint(0, 1000, (16, 12)).tolist(),
                   "attention_mask": np.ones((16, 12), dtype=np.int64).tolist()}
train_labels = np.random.randint(0, 2, 16).astype(np.int32)     # spark -> pandas 'sentiment' column
train_loader = DataLoader(IMDbDataset(train_encodings, train_labels), batch_size=8, shuffle=True)
model = DistilBertForSequenceClassification().to(DEVICE)
optim = torch.optim.Adam(model.parameters(), lr=5e-5)
batch = next(iter(train_loader))
'''
CELL = '''
input_ids = batch['input_ids'].to(DEVICE)
attention_mask = batch['attention_mask'].to(DEVICE)
labels = batch['labels'].to(DEVICE)
outputs = model(input_ids, attention_mask=attention_mask, labels=labels)
loss, logits = outputs['loss'], outputs['logits']
optim.zero_grad()
loss.backward()
optim.step()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long", "not implemented for 'Int'")
CULPRITS = ["batch['labels']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch['labels'] = batch['labels'].long()
'''
REFERENCE_EDIT = None
CLEAN = False
