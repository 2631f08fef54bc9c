"""transformers-interpret `BaseExplainer`: picks cuda when available, moves the model there itself, builds ids on it.

Source: https://github.com/cdpierse/transformers-interpret/blob/master/transformers_interpret/explainer.py
After the quick-start device report the explainer's `__init__` does `self.device = torch.device("cuda" if
torch.cuda.is_available() else "cpu")` followed by `self.model.to(self.device)`, and `_make_input_reference_pair` /
`_make_input_reference_position_id_pair` create `input_ids`, `ref_input_ids`, `position_ids` with
`device=self.device`. Look-alike: a model loaded on the CPU in the user's cell and ids created on cuda by the
library; the explainer moved the model, so the forward runs.
Stand-ins: a tiny DistilBERT-like classifier, a whitespace tokenizer, and the explainer's pair builders and forward
(Layer-IG gradients left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Embeddings(nn.Module):
    def __init__(self, vocab=100, dim=32, max_len=64):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, dim)
        self.position_embeddings = nn.Embedding(max_len, dim)
        self.LayerNorm = nn.LayerNorm(dim)
    def forward(self, input_ids, position_ids):
        return self.LayerNorm(self.word_embeddings(input_ids) + self.position_embeddings(position_ids))

class DistilBertForSequenceClassification(nn.Module):
    base_model_prefix = "distilbert"
    def __init__(self, dim=32, num_labels=2):
        super().__init__()
        self.embeddings = Embeddings(dim=dim)
        self.pre_classifier = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, num_labels)
    def forward(self, input_ids, position_ids=None, attention_mask=None):
        h = self.embeddings(input_ids, position_ids)
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1)
        return self.classifier(torch.relu(self.pre_classifier(h.mean(1))))

class Tokenizer:
    cls_token_id, sep_token_id, pad_token_id = 1, 2, 0
    def encode(self, text, add_special_tokens=True):
        ids = [3 + (sum(map(ord, w)) % 90) for w in text.split()]
        return [self.cls_token_id] + ids + [self.sep_token_id] if add_special_tokens else ids

class SequenceClassificationExplainer:
    def __init__(self, model, tokenizer):
        self.model = model
        self.tokenizer = tokenizer
        self.ref_token_id = tokenizer.pad_token_id
        self.device = torch.device("cuda:0")      # torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device)

    def _make_input_reference_pair(self, text):
        text_ids = self.tokenizer.encode(text, add_special_tokens=False)
        input_ids = self.tokenizer.encode(text, add_special_tokens=True)
        ref_input_ids = [self.tokenizer.cls_token_id] + [self.ref_token_id] * len(text_ids) + [self.tokenizer.sep_token_id]
        return (torch.tensor([input_ids], device=self.device),
                torch.tensor([ref_input_ids], device=self.device), len(text_ids))

    def _make_input_reference_position_id_pair(self, input_ids):
        seq_len = input_ids.size(1)
        position_ids = torch.arange(seq_len, dtype=torch.long, device=self.device)
        ref_position_ids = torch.zeros(seq_len, dtype=torch.long, device=self.device)
        return position_ids.unsqueeze(0).expand_as(input_ids), ref_position_ids.unsqueeze(0).expand_as(input_ids)

    def _make_attention_mask(self, input_ids):
        return torch.ones_like(input_ids)

    def _forward(self, input_ids, position_ids=None, attention_mask=None):
        preds = self.model(input_ids, position_ids=position_ids, attention_mask=attention_mask)
        return torch.softmax(preds, dim=1)

    def __call__(self, text):
        self.input_ids, self.ref_input_ids, self.sep_idx = self._make_input_reference_pair(text)
        self.position_ids, self.ref_position_ids = self._make_input_reference_position_id_pair(self.input_ids)
        self.attention_mask = self._make_attention_mask(self.input_ids)
        return self._forward(self.input_ids, self.position_ids, self.attention_mask)

model = DistilBertForSequenceClassification()     # from_pretrained(...): on the CPU
model.eval()
tokenizer = Tokenizer()
cls_explainer = SequenceClassificationExplainer(model, tokenizer)
'''
CELL = '''
probs = cls_explainer("I love you , I like you")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
