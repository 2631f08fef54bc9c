"""SetFit differentiable head on a non-CUDA accelerator: a precedence slip in SetFitHead's device ternary leaves the head on the CPU.

Source: https://github.com/huggingface/setfit/pull/518
"Fix bug where SetFitHead not moved to non-cuda devices on init": on an M2 MacBook the body is on `mps`,
`from_pretrained` passes that device to `SetFitHead`, but `__init__` computed
`self._device = device or "cuda" if torch.cuda.is_available() else "cpu"`, which parses as
`(device or "cuda") if torch.cuda.is_available() else "cpu"`: without CUDA the given device is thrown away and
the head stays on the CPU while the body's embeddings come from the accelerator. The PR adds the parentheses:
`device or ("cuda" if torch.cuda.is_available() else "cpu")`. Here cuda:0 plays the non-CUDA accelerator
(`torch.cuda.is_available()` is False, as on the Mac). Stand-ins: SentenceTransformer body, SetFitHead, SetFitModel
(weights initialised before the move: no in-place init on fake cuda).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from typing import Optional, Union
import torch
from torch import nn

class SentenceTransformer(nn.Module):
    """Stand-in for sentence_transformers.SentenceTransformer: token embedding + mean pooling."""
    def __init__(self, model_name_or_path, device=None, vocab_size=30527, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.dense = nn.Linear(dim, dim)
        self.to(device)

    @property
    def device(self):
        return next(self.parameters()).device

    def get_sentence_embedding_dimension(self):
        return self.dense.out_features

    def tokenize(self, texts):
        ids = [[(sum(map(ord, w)) % 30000) + 100 for w in t.split()][:8] for t in texts]
        return torch.tensor([x + [0] * (8 - len(x)) for x in ids])

    def encode(self, sentences, convert_to_tensor=False):
        features = self.tokenize(sentences).to(self.device)
        return torch.tanh(self.dense(self.embed(features))).mean(dim=1)

class SetFitHead(nn.Module):
    """Stand-in for setfit.modeling.SetFitHead (before PR #518), reduced."""
    def __init__(self, in_features: Optional[int] = None, out_features: int = 2, temperature: float = 1.0,
                 eps: float = 1e-5, device: Optional[Union[torch.device, str]] = None, multitarget: bool = False):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.temperature = temperature
        self.eps = eps
        self.multitarget = multitarget
        self.apply(self._init_weight)
        self._device = device or "cuda" if torch.cuda.is_available() else "cpu"
        self.to(self._device)

    @staticmethod
    def _init_weight(module):
        if isinstance(module, nn.Linear):
            nn.init.xavier_uniform_(module.weight)
            nn.init.constant_(module.bias, 1e-2)

    def forward(self, features):
        logits = self.linear(features) / (self.temperature + self.eps)
        return logits, nn.functional.softmax(logits, dim=-1)

    def predict(self, x_test):
        return torch.argmax(self(x_test)[1], dim=-1)

class SetFitModel:
    def __init__(self, model_body, model_head):
        self.model_body, self.model_head = model_body, model_head

    @classmethod
    def from_pretrained(cls, model_id, use_differentiable_head=False, head_params=None, device=None):
        model_body = SentenceTransformer(model_id, device=device)
        device = model_body.device
        head_params = head_params or {}
        model_head = SetFitHead(**{**head_params, "in_features": model_body.get_sentence_embedding_dimension(),
                                   "device": device})
        return cls(model_body, model_head)

    def predict(self, inputs):
        embeddings = self.model_body.encode(inputs, convert_to_tensor=True)
        return self.model_head.predict(embeddings)

model = SetFitModel.from_pretrained("sentence-transformers/paraphrase-mpnet-base-v2", use_differentiable_head=True,
                                    head_params={"out_features": 3}, device="cuda:0")
'''
CELL = '''
preds = model.predict(["i loved the spiderman movie!", "pineapple on pizza is the worst"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'self._device = device or "cuda" if torch.cuda.is_available() else "cpu"',
    'self._device = device or ("cuda" if torch.cuda.is_available() else "cpu")',
)
CLEAN = False
