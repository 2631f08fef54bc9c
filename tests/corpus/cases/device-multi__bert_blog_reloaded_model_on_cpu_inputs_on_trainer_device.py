"""Text classification blog notebook: inputs follow `trainer.model.device` (the GPU) but the reloaded `new_model` is on the CPU.

Source: https://github.com/RajKKapadia/Transformers-Text-Classification-BERT-Blog/issues/1
Running the notebook on a GPU, `get_prediction('I am not happy to see you.')` fails in
`outputs = new_model(**encoding)` with "Expected all tensors to be on the same device, but found at
least two devices, cpu and cuda:0". The notebook saves the fine-tuned model, reloads it as
`new_model = AutoModelForSequenceClassification.from_pretrained('./model/')` (CPU) and moves the
encoding to `trainer.model.device`, the device the Trainer put the *other* model on; the reporter's
PR #2 moves `new_model` to the device. Stand-in: a tiny BERT-style classifier, a Trainer that
places its model on the GPU as HF's does, and a tokenizer returning the encoding dict.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
import torch.nn as nn

class BertForSequenceClassification(nn.Module):
    def __init__(self, vocab_size=1000, hidden=32, num_labels=2, max_len=128):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden)
        self.position_embeddings = nn.Embedding(max_len, hidden)
        self.token_type_embeddings = nn.Embedding(2, hidden)
        self.encoder = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU(), nn.LayerNorm(hidden))   # the BERT layers
        self.classifier = nn.Linear(hidden, num_labels)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, input_ids, token_type_ids=None, attention_mask=None):
        positions = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        h = self.word_embeddings(input_ids) + self.position_embeddings(positions) + self.token_type_embeddings(token_type_ids)
        h = self.encoder(h)
        return SimpleNamespace(logits=self.classifier(h.mean(dim=1)))

class Trainer:
    def __init__(self, model, device):
        self.model = model.to(device)           # transformers.Trainer moves the model to args.device

def new_tokenizer(text, return_tensors="pt", padding="max_length", truncation=True, max_length=128):
    ids = [101] + [hash(w) % 900 + 100 for w in text.split()] + [102]
    ids = ids + [0] * (max_length - len(ids))
    mask = [1 if i else 0 for i in ids]
    return {"input_ids": torch.tensor([ids]), "token_type_ids": torch.zeros(1, max_length, dtype=torch.long),
            "attention_mask": torch.tensor([mask])}

model = BertForSequenceClassification()
trainer = Trainer(model, torch.device("cuda:0"))
# model.save_pretrained('./model/') ... then:
new_model = BertForSequenceClassification()
new_model.load_state_dict(model.state_dict())   # AutoModelForSequenceClassification.from_pretrained('./model/')
new_model.eval()

def get_prediction(text):
    encoding = new_tokenizer(text, return_tensors="pt", padding="max_length", truncation=True, max_length=128)
    encoding = {k: v.to(trainer.model.device) for k, v in encoding.items()}
    outputs = new_model(**encoding)
    logits = outputs.logits
    sigmoid = torch.nn.Sigmoid()
    probs = sigmoid(logits.squeeze())
    return probs
'''
CELL = '''
probs = get_prediction('I am not happy to see you.')
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["new_model"]
FIX = "namespace"
REFERENCE_FIX = '''
new_model = new_model.to(trainer.model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
