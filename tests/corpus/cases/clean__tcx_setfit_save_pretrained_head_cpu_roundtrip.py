"""Look-alike: SetFitModel.save_pretrained moves the differentiable head to the CPU to pickle it, then puts it back on the model's device before predicting again.

Source: https://github.com/huggingface/setfit/blob/main/src/setfit/modeling.py
`SetFitModel._save_pretrained`: "Move the head to the CPU before saving" (`self.model_head.to("cpu")`), dumps it
with joblib, then `self.model_head.to(self.device)`, where `device` is the body's device. Right after saving, the
head and the body are on the same GPU again and `predict` works. Stand-ins: SentenceTransformer body, SetFitHead,
SetFitModel reduced to `predict`/`save_pretrained`; joblib.dump is replaced by an in-memory record (no files).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

_saved_heads = {}    # stands in for the model_head.pkl file written by joblib.dump

class SentenceTransformer(nn.Module):
    def __init__(self, model_name_or_path, vocab_size=30527, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.dense = nn.Linear(dim, dim)

    @property
    def device(self):
        return next(self.parameters()).device

    def encode(self, sentences, convert_to_tensor=True):
        ids = [[(sum(map(ord, w)) % 30000) + 100 for w in t.split()][:8] for t in sentences]
        features = torch.tensor([x + [0] * (8 - len(x)) for x in ids]).to(self.device)
        return torch.tanh(self.dense(self.embed(features))).mean(dim=1)

class SetFitHead(nn.Module):
    def __init__(self, in_features=32, out_features=2):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        logits = self.linear(x)
        return logits, nn.functional.softmax(logits, dim=-1)

    def predict(self, x_test):
        return torch.argmax(self(x_test)[1], dim=-1)

class SetFitModel:
    def __init__(self, model_body, model_head):
        self.model_body, self.model_head = model_body, model_head

    @property
    def has_differentiable_head(self):
        return isinstance(self.model_head, nn.Module)

    @property
    def device(self):
        return self.model_body.device

    def to(self, device):
        self.model_body = self.model_body.to(device)
        if self.has_differentiable_head:
            self.model_head = self.model_head.to(device)
        return self

    def predict(self, inputs):
        embeddings = self.model_body.encode(inputs, convert_to_tensor=self.has_differentiable_head)
        return self.model_head.predict(embeddings)

    def save_pretrained(self, save_directory):
        # Move the head to the CPU before saving
        if self.has_differentiable_head:
            self.model_head.to("cpu")
        # Save the classification head
        _saved_heads[save_directory + "/model_head.pkl"] = next(self.model_head.parameters()).device
        if self.has_differentiable_head:
            self.model_head.to(self.device)

model = SetFitModel(SentenceTransformer("sentence-transformers/paraphrase-mpnet-base-v2"), SetFitHead(32, 3))
model.to("cuda:0")
'''
CELL = '''
model.save_pretrained("setfit-emotion")
preds = model.predict(["i am so happy today", "this is terrifying"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
