"""FiftyOne CLIP zoo model on a cuda device: the class-prompt tokens used for the text features stay on the CPU.

Source: https://github.com/voxel51/fiftyone/pull/2201
"Support cuda devices for CLIP zoo model": running the CLIP zoo model (`clip-vit-base32-torch`) on a cuda
device failed with a device mismatch because the text side (tokenized class prompts -> `text_features`) was
not placed on the model's device; the PR puts it on the same device as the model. Stand-ins: a tiny CLIP
(patch conv + token embedding), a word-hash `tokenize`, and the zoo model's lazy `_get_text_features` /
`predict_all` shape.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def tokenize(texts, context_length=8):
    rows = [[49406] + [sum(map(ord, w)) % 40000 + 300 for w in t.split()][:context_length - 2] + [49407] for t in texts]
    return torch.tensor([r + [0] * (context_length - len(r)) for r in rows])

class CLIP(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.visual = nn.Sequential(nn.Conv2d(3, dim, 8, stride=8), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.token_embedding = nn.Embedding(49408, dim)
        self.text_projection = nn.Linear(dim, dim, bias=False)
    def encode_image(self, image):
        return self.visual(image)
    def encode_text(self, text):
        return self.text_projection(self.token_embedding(text).mean(dim=1))

class TorchCLIPModel:
    def __init__(self, classes, text_prompt="A photo of", device="cuda:0"):
        self.classes = classes
        self.text_prompt = text_prompt
        self._device = torch.device(device)
        self._model = CLIP().to(self._device)
        self._text_features = None

    def _get_text_features(self):
        if self._text_features is None:
            prompts = ["%s %s" % (self.text_prompt, c) for c in self.classes]
            text = tokenize(prompts)
            self._text_features = self._model.encode_text(text)
        return self._text_features

    def predict_all(self, imgs):
        with torch.no_grad():
            imgs = imgs.to(self._device)
            image_features = self._model.encode_image(imgs)
            text_features = self._get_text_features()
            logits = image_features @ text_features.t()
        return logits.argmax(dim=-1)

model = TorchCLIPModel(classes=["cat", "dog", "bird"])
imgs = torch.rand(2, 3, 32, 32)
'''
CELL = '''
labels = model.predict_all(imgs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("text = tokenize(prompts)", "text = tokenize(prompts).to(self._device)")
CLEAN = False
