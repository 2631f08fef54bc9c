"""transformers-interpret quick start on a GPU machine: the explainer builds its ids on cuda, the model is still on the CPU.

Source: https://github.com/cdpierse/transformers-interpret/issues/16
The README quick start (`SequenceClassificationExplainer(...)` on a freshly loaded DistilBERT SST-2 model, then
`cls_explainer(...)`) failed in `torch.embedding` with a device error; setting `cls_explainer.device =
torch.device("cpu")` made it run. The maintainer's answer: the explainer picks `cuda` when it is available and makes
its input/reference ids there, but "I wasn't moving the model's params over to GPU" -- the model stays on the CPU;
the patch moved the model to the explainer's device.
Stand-ins: a tiny DistilBERT-like classifier, a whitespace tokenizer, and the explainer's
`_make_input_reference_pair` / `_make_attention_mask` / forward path (the Layer-IG gradients are left out: the
failure is in the first forward).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class Embeddings(nn.Module):
    def __init__(self, vocab=100, dim=32, max_len=64):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, dim)
        self.position_embeddings = nn.Embedding(max_len, dim)
        self.LayerNorm = nn.LayerNorm(dim)
    def forward(self, input_ids):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)
        return self.LayerNorm(self.word_embeddings(input_ids) + self.position_embeddings(pos))

class DistilBertForSequenceClassification(nn.Module):
    def __init__(self, dim=32, num_labels=2):
        super().__init__()
        self.embeddings = Embeddings(dim=dim)
        self.pre_classifier = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, num_labels)
    def forward(self, input_ids, attention_mask=None):
        h = self.embeddings(input_ids)
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1)
        return self.classifier(torch.relu(self.pre_classifier(h.mean(1))))

class Tokenizer:
    cls_token_id, sep_token_id, pad_token_id = 1, 2, 0
    def encode(self, text, add_special_tokens=False):
        return [3 + (sum(map(ord, w)) % 90) for w in text.split()]

class SequenceClassificationExplainer:
    def __init__(self, model, tokenizer):
        self.model = model
        self.tokenizer = tokenizer
        self.device = torch.device("cuda:0")      # torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def _make_input_reference_pair(self, text):
        text_ids = self.tokenizer.encode(text, add_special_tokens=False)
        input_ids = [self.tokenizer.cls_token_id] + text_ids + [self.tokenizer.sep_token_id]
        ref_input_ids = [self.tokenizer.cls_token_id] + [self.tokenizer.pad_token_id] * len(text_ids) + [self.tokenizer.sep_token_id]
        return (torch.tensor([input_ids], device=self.device),
                torch.tensor([ref_input_ids], device=self.device), len(text_ids))

    def _make_attention_mask(self, input_ids):
        return torch.ones_like(input_ids)

    def _forward(self, input_ids, attention_mask=None):
        preds = self.model(input_ids, attention_mask=attention_mask)
        return torch.softmax(preds, dim=1)

    def __call__(self, text):
        self.input_ids, self.ref_input_ids, self.sep_idx = self._make_input_reference_pair(text)
        self.attention_mask = self._make_attention_mask(self.input_ids)
        self.pred_probs = self._forward(self.input_ids, self.attention_mask)
        return self.pred_probs

model = DistilBertForSequenceClassification()     # from_pretrained("distilbert-base-uncased-finetuned-sst-2-english")
model.eval()
tokenizer = Tokenizer()
cls_explainer = SequenceClassificationExplainer(model, tokenizer)
'''
CELL = '''
attributions = cls_explainer("I love you, I like you")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(cls_explainer.device)
'''
REFERENCE_EDIT = None
CLEAN = False
