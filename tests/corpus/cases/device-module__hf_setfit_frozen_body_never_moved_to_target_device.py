"""SetFit differentiable head with the body kept frozen: the SentenceTransformer body never leaves the CPU while the batches go to its target device.

Source: https://github.com/huggingface/setfit/issues/169
The reporter builds `SetFitModel.from_pretrained(..., use_differentiable_head=True)`, calls `trainer.freeze()`,
`trainer.unfreeze(keep_body_frozen=True)` and `trainer.train(...)`: "Expected all tensors to be on the same
device". A SentenceTransformer only records `_target_device` at construction; its weights move there when its own
`fit`/`encode` runs, which the frozen-body path never calls, while SetFit's head loop sends the features and
labels to `model_body._target_device`. PR #175 moves `model_body` to `_target_device` right after initialization.
Stand-ins: a SentenceTransformer-like body with `_target_device`, SetFitHead, the trainer's head-only loop;
"meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class SentenceTransformer(nn.Module):
    def __init__(self, model_name_or_path, device=None, vocab_size=30527, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.dense = nn.Linear(dim, dim)
        self._target_device = torch.device("meta" if device is None else device)   # "cuda" when available
    def tokenize(self, texts):
        ids = [[0] + [(sum(map(ord, w)) % 30000) + 100 for w in t.split()] + [2] for t in texts]
        n = max(len(x) for x in ids)
        return {"input_ids": torch.tensor([x + [1] * (n - len(x)) for x in ids]),
                "attention_mask": torch.tensor([[1] * len(x) + [0] * (n - len(x)) for x in ids])}
    def forward(self, features):
        tok = torch.tanh(self.dense(self.embed(features["input_ids"])))
        mask = features["attention_mask"].unsqueeze(-1)
        return {"sentence_embedding": (tok * mask).sum(1) / mask.sum(1)}

class SetFitHead(nn.Module):
    def __init__(self, in_features=32, out_features=2, device=None):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features).to(device)
    def forward(self, features):
        return {"logits": self.linear(features["sentence_embedding"])}

class SetFitModel:
    def __init__(self, model_body, model_head):
        self.model_body, self.model_head = model_body, model_head
    @classmethod
    def from_pretrained(cls, name, use_differentiable_head=True, head_params=None):
        body = SentenceTransformer(name)
        head = SetFitHead(in_features=32, device=body._target_device, **(head_params or {}))
        return cls(body, head)
    def freeze(self):
        for p in self.model_body.parameters():
            p.requires_grad_(False)
    def fit(self, x_train, y_train, num_epochs=1, learning_rate=1e-3):
        device = self.model_body._target_device
        optimizer = torch.optim.AdamW(self.model_head.parameters(), lr=learning_rate)
        criterion = nn.CrossEntropyLoss()
        for _ in range(num_epochs):
            features = {k: v.to(device) for k, v in self.model_body.tokenize(x_train).items()}
            labels = torch.tensor(y_train).to(device)
            optimizer.zero_grad()
            logits = self.model_head(self.model_body(features))["logits"]
            loss = criterion(logits, labels)
            loss.backward()
            optimizer.step()

class SetFitTrainer:
    def __init__(self, model, train_dataset):
        self.model, self.train_dataset = model, train_dataset
    def freeze(self):
        self.model.freeze()
    def unfreeze(self, keep_body_frozen=False):
        pass
    def train(self, num_epochs=1, learning_rate=1e-3):
        self.model.fit(self.train_dataset["text"], self.train_dataset["label"], num_epochs, learning_rate)

num_classes = 3
model = SetFitModel.from_pretrained("sentence-transformers/paraphrase-mpnet-base-v2",
                                    use_differentiable_head=True, head_params={"out_features": num_classes})
ds = {"train": {"text": ["i love it", "terrible service", "it is okay", "best purchase ever"], "label": [0, 1, 2, 0]}}
trainer = SetFitTrainer(model=model, train_dataset=ds["train"])
trainer.freeze()
trainer.unfreeze(keep_body_frozen=True)
'''
CELL = '''
trainer.train(num_epochs=2, learning_rate=1e-3)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device",
                "Tensor on device meta is not on the expected device cpu")
CULPRITS = ["model.model_body"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model_body.to(model.model_body._target_device)
'''
REFERENCE_EDIT = None
CLEAN = False
