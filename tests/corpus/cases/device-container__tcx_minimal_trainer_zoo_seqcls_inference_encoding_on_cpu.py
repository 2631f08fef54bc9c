"""minimal-trainer-zoo sequence classification: after `trainer.train()` on the GPU, the inference step feeds the tokenizer's BatchEncoding, still on the CPU.

Source: https://github.com/muellerzr/minimal-trainer-zoo/pull/3
"Update token_classification.py and sequence_classification.py": running the scripts on a GPU machine, the
inference part failed with "RuntimeError: Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cpu" (then a `KeyError: tensor(0, device='cuda:0')` on the label lookup). The Trainer has
placed the DistilBERT classifier on cuda:0 through accelerate, while `encoded_input = tokenizer(text,
return_tensors="pt")` stays on the CPU; the PR moves the encoding to the GPU before `model(**encoded_input)`.
Stand-ins: BatchEncoding, a word-level tokenizer, a tiny sequence classifier, `trainer.train()` reduced to the
model placement it does.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class Tokenizer:
    def __call__(self, text, return_tensors="pt"):
        ids = [101] + [(sum(map(ord, w)) % 28000) + 1000 for w in text.split()] + [102]
        return BatchEncoding(input_ids=torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long))

class DistilBertForSequenceClassification(nn.Module):
    def __init__(self, vocab_size=30522, dim=32, num_labels=2):
        super().__init__()
        self.config = SimpleNamespace(id2label={0: "NEGATIVE", 1: "POSITIVE"})
        self.embeddings = nn.Embedding(vocab_size, dim)
        self.pre_classifier = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        hidden = self.embeddings(input_ids)
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = torch.relu(self.pre_classifier((hidden * mask).sum(1) / mask.sum(1)))
        return SimpleNamespace(logits=self.classifier(pooled))

class Trainer:
    def __init__(self, model, args):
        self.model, self.args = model, args

    def train(self):
        self.model.to(self.args.device)       # accelerate places the model; the training loop is left out

tokenizer = Tokenizer()
model = DistilBertForSequenceClassification(num_labels=2)
training_args = SimpleNamespace(output_dir="sequence_classification", device=torch.device("cuda:0"))
trainer = Trainer(model=model, args=training_args)
trainer.train()
text = "This was a masterpiece. Not completely faithful to the books, but enthralling from beginning to end."
encoded_input = tokenizer(text, return_tensors="pt")
'''
CELL = '''
model.eval()
with torch.inference_mode():
    logits = model(**encoded_input).logits
predicted_class = logits.argmax()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encoded_input"]
FIX = "namespace"
REFERENCE_FIX = '''
encoded_input = encoded_input.to(training_args.device)
'''
REFERENCE_EDIT = None
CLEAN = False
