"""weaviate multi2vec-clip inference container: the CLIP text vectorizer runs on CUDA but the processor's tensors stay on the CPU.

Source: https://github.com/weaviate/multi2vec-clip-inference/pull/10
"move tensors to DEVICE, fixes #9": with `ENABLE_CUDA=1` the container moved the CLIP model to
the GPU, but `vectorize` passed the processor's output (CPU tensors) straight to
`get_text_features`, and vectorizing failed with the device-mismatch error. The fix moves the
processor's tensors to the module's `DEVICE`. Stand-in: a tiny CLIP text tower and the
vectorizer class of the container.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class CLIPProcessor:
    def __call__(self, text, return_tensors="pt", padding=True):
        rows = [[(sum(map(ord, w)) % 90) + 1 for w in t.split()] for t in text]
        n = max(map(len, rows))
        ids = torch.tensor([r + [0] * (n - len(r)) for r in rows])
        return {"input_ids": ids, "attention_mask": (ids != 0).long()}

class CLIPModel(nn.Module):
    def __init__(self, vocab=100, d=32, proj=16):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, d)
        self.encoder = nn.Linear(d, d)
        self.text_projection = nn.Linear(d, proj, bias=False)

    def get_text_features(self, input_ids, attention_mask):
        h = torch.tanh(self.encoder(self.token_embedding(input_ids)))
        pooled = (h * attention_mask[..., None]).sum(1) / attention_mask.sum(1, keepdim=True)
        return self.text_projection(pooled)

DEVICE = "cuda:0"   # os.getenv("ENABLE_CUDA") == "1"

class ClipTextVectorizer:
    def __init__(self):
        self.model = CLIPModel().to(DEVICE)
        self.processor = CLIPProcessor()

    def vectorize(self, text):
        with torch.no_grad():
            inputs = self.processor(text=text, return_tensors="pt", padding=True)
            text_features = self.model.get_text_features(**inputs)
            return text_features

clip = ClipTextVectorizer()
texts = ["a photo of a cat", "a red sports car on a racetrack"]
'''
CELL = '''
vectors = clip.vectorize(texts)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('inputs = self.processor(text=text, return_tensors="pt", padding=True)',
                  'inputs = self.processor(text=text, return_tensors="pt", padding=True)\n            inputs = {k: v.to(DEVICE) for k, v in inputs.items()}')
CLEAN = False
