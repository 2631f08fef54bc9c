"""transformers-interpret explainer moves the shared model to CUDA; the CPU pipeline using it then fails.

Source: https://github.com/cdpierse/transformers-interpret/pull/57
"This PR prevents Explainer initialization from changing the model device": with
`classifier = pipeline("zero-shot-classification")` (CPU) and
`explainer = ZeroShotClassificationExplainer(classifier.model, classifier.tokenizer)`, the
explainer's `__init__` did `self.model.to(self.device)` (CUDA when available), so the next
`classifier("bluebear", [...])` fed CPU token ids to a model now on the GPU and failed in
`torch.embedding`. Stand-in: a pipeline object (CPU tokenizer, model) and the explainer's init.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class TinyNLI(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.classifier = nn.Linear(dim, 3)

    def forward(self, input_ids):
        return self.classifier(self.embeddings(input_ids).mean(1))

class Tokenizer:
    def __call__(self, texts):
        return torch.tensor([[hash(w) % 100 for w in t.split()][:4] + [0] * (4 - len(t.split()[:4]))
                             for t in texts])

class ZeroShotClassificationPipeline:
    def __init__(self, model, tokenizer, device=torch.device("cpu")):
        self.model, self.tokenizer, self.device = model, tokenizer, device

    def __call__(self, sequence, candidate_labels):
        pairs = [f"{sequence} is {label}" for label in candidate_labels]
        input_ids = self.tokenizer(pairs).to(self.device)
        with torch.no_grad():
            logits = self.model(input_ids)
        return {"labels": candidate_labels, "scores": logits.softmax(-1)}

class ZeroShotClassificationExplainer:
    def __init__(self, model, tokenizer):
        self.model, self.tokenizer = model, tokenizer
        self.device = torch.device("cuda:0")       # "cuda" if torch.cuda.is_available()
        self.model.to(self.device)

classifier = ZeroShotClassificationPipeline(TinyNLI().eval(), Tokenizer())
explainer = ZeroShotClassificationExplainer(classifier.model, classifier.tokenizer)
'''
CELL = '''
result = classifier("bluebear", ["animal", "art", "fruit"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["classifier.model"]
FIX = "namespace"
REFERENCE_FIX = '''
classifier.model.to("cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
