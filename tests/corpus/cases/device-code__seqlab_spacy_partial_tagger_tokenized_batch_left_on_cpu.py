"""spacy-partial-tagger NER on the GPU: the tok2vec transformer layer tokenizes into CPU tensors and feeds the GPU model.

Source: https://github.com/doccano/spacy-partial-tagger/pull/25
"Fix `expected all tensors to be on the same device`": "the current version raises a `RuntimeError:
Expected all tensors to be on the same device`. This PR fixes the problem by setting device." In
`tok2vec_transformer.forward` the HuggingFace tokenizer returns a `BatchEncoding` of CPU tensors
that goes straight into the PyTorch-wrapped transformer, which thinc has put on the GPU; the fix
adds `device = get_torch_default_device()` and `tokenizer(...).to(device)`. Stand-ins: thinc's
Model/PyTorchWrapper, `get_torch_default_device`, a tokenizer returning a BatchEncoding (offsets
kept as Python lists) and a one-layer BERT-like encoder; the error shows at its attention mask.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
import torch
import torch.nn as nn

_TORCH_DEFAULT_DEVICE = torch.device("cuda:0")      # spacy.require_gpu()

def get_torch_default_device():
    """thinc.api.get_torch_default_device, reduced."""
    return _TORCH_DEFAULT_DEVICE

class BatchEncoding(dict):
    """transformers.BatchEncoding, reduced."""
    def __getattr__(self, item):
        try:
            return self[item]
        except KeyError:
            raise AttributeError(item)

    def to(self, device):
        return BatchEncoding({k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in self.items()})

class Tokenizer:
    is_fast = True
    def __init__(self, vocab):
        self.vocab = vocab

    def __call__(self, texts, **kwargs):
        words = [t.split() for t in texts]
        length = max(len(w) for w in words) + 2
        ids, masks, offsets = [], [], []
        for ws, text in zip(words, texts):
            row = [101] + [self.vocab.get(w.lower(), 100) for w in ws] + [102]
            masks.append([1] * len(row) + [0] * (length - len(row)))
            ids.append(row + [0] * (length - len(row)))
            spans, start = [(0, 0)], 0
            for w in ws:
                start = text.index(w, start)
                spans.append((start, start + len(w)))
                start += len(w)
            offsets.append(spans + [(0, 0)] * (length - len(spans)))
        return BatchEncoding(input_ids=torch.tensor(ids), token_type_ids=torch.zeros(len(ids), length, dtype=torch.long),
                             attention_mask=torch.tensor(masks), offset_mapping=offsets)

class BertLikeEncoder(nn.Module):
    def __init__(self, vocab_size=200, hidden=16):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden)
        self.token_type_embeddings = nn.Embedding(2, hidden)
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def forward(self, input_ids, token_type_ids, attention_mask):
        h = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
        scores = self.query(h) @ self.key(h).transpose(-1, -2) / 4.0
        extended_attention_mask = (1.0 - attention_mask[:, None, :].float()) * -10000.0
        probs = (scores + extended_attention_mask).softmax(-1)
        return types.SimpleNamespace(last_hidden_state=probs @ self.value(h))

class TransformersWrapper(nn.Module):
    def __init__(self, transformer):
        super(TransformersWrapper, self).__init__()
        self.transformer = transformer

    def forward(self, inputs):
        lengths = inputs.attention_mask.sum(dim=-1)
        outputs = self.transformer(**inputs).last_hidden_state
        return outputs, lengths

class PyTorchWrapper:
    """thinc PyTorchWrapper_v2 reduced: the shim holds the torch model on the current ops' device."""
    def __init__(self, torch_model):
        self._model = torch_model.to(get_torch_default_device())

    def __call__(self, X, is_train):
        with torch.no_grad():
            Yt, Lt = self._model(X)
        return (Yt, Lt), (lambda dY: dY)

class TransformerAligner:
    def __init__(self, mapping):
        self.mapping = mapping

class Model:
    """thinc.api.Model reduced: name, forward function, attrs and layers."""
    def __init__(self, name, forward, attrs, layers):
        self.name, self._func, self.attrs, self.layers = name, forward, attrs, layers

    def __call__(self, X, is_train):
        return self._func(self, X, is_train)

    def predict(self, X):
        return self._func(self, X, is_train=False)[0]

def forward(model, X, is_train):
    tokenizer = model.attrs["tokenizer"]

    texts = [doc.text for doc in X]
    max_length = model.attrs["max_length"]
    if max_length is not None:
        padding = "max_length"
    else:
        padding = "longest"
    X = tokenizer(
        texts,
        add_special_tokens=True,
        return_token_type_ids=True,
        return_attention_mask=True,
        return_tensors="pt",
        return_offsets_mapping=tokenizer.is_fast,
        padding=padding,
        max_length=max_length,
        truncation=False,
    )
    if tokenizer.is_fast:
        mappings = [
            [list(range(start, end)) for start, end in mapping]
            for mapping in X.pop("offset_mapping")
        ]
    aligners = [TransformerAligner(mapping) for mapping in mappings]
    Y, backward = model.layers[0](X, is_train)
    return (Y, aligners), backward

class Doc:
    def __init__(self, text):
        self.text = text

vocab = {"tokyo": 5, "is": 6, "the": 7, "capital": 8, "of": 9, "japan": 10, "alice": 11, "lives": 12, "in": 13, "paris": 14}
tok2vec = Model(
    "misaligned_tok2vec_transformer",
    forward=forward,
    attrs={"tokenizer": Tokenizer(vocab), "max_length": None},
    layers=[PyTorchWrapper(TransformersWrapper(BertLikeEncoder()))],
)
docs = [Doc("Tokyo is the capital of Japan"), Doc("Alice lives in Paris")]
'''
CELL = '''
(Yt, lengths), aligners = tok2vec.predict(docs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["X"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        truncation=False,\n    )\n",
    "        truncation=False,\n    ).to(get_torch_default_device())\n",
)
CLEAN = False
