"""minimal-trainer-zoo token classification: after `trainer.train()` on the GPU, the inference cell feeds the tokenizer output, still on the CPU.

Source: https://github.com/muellerzr/minimal-trainer-zoo/pull/4
The script fine-tunes a token-classification model with the Trainer (which moves the model to the GPU through
accelerate), then performs inference on "The Golden State Warriors are an American professional basketball team
based in San Francisco." with `encoded_input = tokenizer(text, return_tensors="pt")` and
`model(**encoded_input)`: the BatchEncoding stays on the CPU and the embedding lookup fails with a cuda/cpu
device error. The PR moves it (`.to("cuda")`; the reviewer asks for the Trainer's device). Stand-ins: a
BatchEncoding, a word-level tokenizer, a tiny DistilBERT token classifier; `trainer.train()` reduced to the model
placement it does.
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

class DistilBertForTokenClassification(nn.Module):
    def __init__(self, vocab_size=30522, dim=32, num_labels=9):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, dim)
        self.transformer = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.classifier = nn.Linear(dim, num_labels)
    def forward(self, input_ids, attention_mask=None, labels=None):
        return SimpleNamespace(logits=self.classifier(self.transformer(self.embeddings(input_ids))))

class Trainer:
    def __init__(self, model, args):
        self.model, self.args = model, args
    def train(self):
        self.model.to(self.args.device)       # accelerate places the model; the training loop is left out

label_names = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
tokenizer = Tokenizer()
model = DistilBertForTokenClassification(num_labels=len(label_names))
training_args = SimpleNamespace(output_dir="token_classification", device=torch.device("cuda:0"))
trainer = Trainer(model=model, args=training_args)
trainer.train()
text = "The Golden State Warriors are an American professional basketball team based in San Francisco."
encoded_input = tokenizer(text, return_tensors="pt")
'''
CELL = '''
outputs = model(**encoded_input)
predictions = outputs.logits.argmax(dim=-1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encoded_input"]
FIX = "namespace"
REFERENCE_FIX = '''
encoded_input = encoded_input.to(training_args.device)
'''
REFERENCE_EDIT = None
CLEAN = False
