"""Look-alike: SetFit multi-label training after PR #272: SetFitDataset still yields long labels, and `fit` casts them to float for the multi-target head's BCEWithLogitsLoss.

Source: https://github.com/huggingface/setfit/pull/272
"Feature/setfithead multi target": for `multi_target_strategy` heads the loss is BCEWithLogitsLoss, which needs
float targets, while SetFitDataset's collate_fn builds `torch.long` labels (right for CrossEntropyLoss). The PR
keeps the dataset as it is and adds `if self.model_head.multitarget: labels = labels.float()` in the head's
training loop (a reviewer asked whether the dataset should type them instead). Long labels in the batch and a
float cast at use: the cell trains. Stand-ins: SetFitDataset, a mean-pooling body and SetFitHead, fit's head loop.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.utils.data import Dataset

class SetFitDataset(Dataset):
    def __init__(self, x, y, tokenizer, max_length=32):
        self.x, self.y, self.tokenizer, self.max_length = x, y, tokenizer, max_length
    def __len__(self):
        return len(self.x)
    def __getitem__(self, idx):
        return self.tokenizer(self.x[idx])[: self.max_length], self.y[idx]
    @staticmethod
    def collate_fn(batch):
        n = max(len(f) for f, _ in batch)
        features = {"input_ids": torch.tensor([f + [0] * (n - len(f)) for f, _ in batch]),
                    "attention_mask": torch.tensor([[1] * len(f) + [0] * (n - len(f)) for f, _ in batch])}
        labels = torch.tensor([l for _, l in batch], dtype=torch.long)
        return features, labels

class SentenceTransformerBody(nn.Module):
    def __init__(self, vocab_size=30527, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
    def forward(self, features):
        tok = self.embed(features["input_ids"]) * features["attention_mask"].unsqueeze(-1)
        return {"sentence_embedding": tok.sum(1) / features["attention_mask"].sum(1, keepdim=True)}

class SetFitHead(nn.Module):
    def __init__(self, in_features=32, out_features=2, multitarget=False):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.multitarget = multitarget
    def forward(self, features):
        logits = self.linear(features["sentence_embedding"])
        return {"logits": logits}
    def get_loss_fn(self):
        return nn.BCEWithLogitsLoss() if self.multitarget else nn.CrossEntropyLoss()

class SetFitModel:
    def __init__(self, model_body, model_head):
        self.model_body, self.model_head = model_body, model_head
        self.tokenizer = lambda text: [101] + [(sum(map(ord, w)) % 30000) + 100 for w in text.split()] + [102]

    def fit(self, x_train, y_train, num_epochs=1, batch_size=4, learning_rate=1e-3, device="cpu"):
        dataset = SetFitDataset(x_train, y_train, self.tokenizer)
        dataloader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, collate_fn=SetFitDataset.collate_fn)
        criterion = self.model_head.get_loss_fn()
        optimizer = torch.optim.AdamW(list(self.model_head.parameters()), lr=learning_rate)
        for epoch_idx in range(num_epochs):
            for batch in dataloader:
                features, labels = batch
                optimizer.zero_grad()
                features = {k: v.to(device) for k, v in features.items()}
                labels = labels.to(device)
                if self.model_head.multitarget:
                    labels = labels.float()
                outputs = self.model_body(features)
                predictions = self.model_head(outputs)
                logits = predictions["logits"]
                loss = criterion(logits, labels)
                loss.backward()
                optimizer.step()

num_class = 4
model = SetFitModel(SentenceTransformerBody(),
                    SetFitHead(in_features=32, out_features=num_class, multitarget=True))   # one-vs-rest
x_train = ["you are an idiot", "have a nice day", "go back to your country", "thanks for the help"]
y_train = [[1, 0, 0, 0], [0, 0, 0, 0], [1, 0, 1, 0], [0, 0, 0, 0]]
'''
CELL = '''
model.fit(x_train, y_train, num_epochs=1, batch_size=4)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
