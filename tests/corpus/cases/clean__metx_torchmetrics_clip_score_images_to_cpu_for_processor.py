"""torchmetrics `CLIPScore` on cuda images: the images are copied to the CPU for the processor and the processed pixels go back to the model's device.

Source: https://github.com/Lightning-AI/torchmetrics/blob/master/src/torchmetrics/functional/multimodal/clip_score.py
`_clip_score_update` takes `device = images[0].device`, calls the HF processor with
`images=[i.cpu() for i in images]` (the processor works on host data), then runs
`model.get_image_features(processed_input["pixel_values"].to(device))` and
`model.get_text_features(processed_input["input_ids"].to(device), ...attention_mask.to(device))`;
the metric (with its CLIP model as a submodule) was moved with `.to(device)`, so the `score` and
`n_samples` states are there too. Look-alike: a deliberate `.cpu()` round trip in the middle of a
cuda metric update. Stand-in: `CLIPScore.update/compute` and `_clip_score_update` as in
torchmetrics 1.2 on a minimal `Metric`; a small two-tower model for `CLIPModel` and a
resize/normalise + hashing-tokenizer processor for `CLIPProcessor`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn.functional as F
from torch import nn, Tensor

class Metric(nn.Module):                              # stand-in for torchmetrics.Metric
    def add_state(self, name, default, dist_reduce_fx=None):
        self.register_buffer(name, default, persistent=False)

class TinyCLIPModel(nn.Module):                       # stand-in for transformers.CLIPModel
    def __init__(self, dim=32, vocab=1000, max_pos=77):
        super().__init__()
        self.config = SimpleNamespace(text_config=SimpleNamespace(max_position_embeddings=max_pos))
        self.vision = nn.Sequential(nn.Conv2d(3, 16, 4, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                    nn.Flatten(), nn.Linear(16, dim))
        self.token_embedding = nn.Embedding(vocab, dim)
        self.text_projection = nn.Linear(dim, dim, bias=False)

    def get_image_features(self, pixel_values):
        return self.vision(pixel_values)

    def get_text_features(self, input_ids, attention_mask):
        h = self.token_embedding(input_ids) * attention_mask.unsqueeze(-1)
        return self.text_projection(h.sum(1) / attention_mask.sum(1, keepdim=True))

class TinyCLIPProcessor:                              # stand-in for transformers.CLIPProcessor
    mean = torch.tensor([0.4815, 0.4578, 0.4082]).view(3, 1, 1)
    std = torch.tensor([0.2686, 0.2613, 0.2758]).view(3, 1, 1)

    def __call__(self, text, images, return_tensors="pt", padding=True):
        pixel_values = torch.stack([
            (F.interpolate(img.float().unsqueeze(0) / 255.0, size=(224, 224), mode="bilinear").squeeze(0) - self.mean) / self.std
            for img in images
        ])
        ids = [[hash(w) % 1000 for w in t.split()] for t in text]
        length = max(len(i) for i in ids)
        input_ids = torch.tensor([i + [0] * (length - len(i)) for i in ids], dtype=torch.long)
        attention_mask = torch.tensor([[1] * len(i) + [0] * (length - len(i)) for i in ids], dtype=torch.long)
        return {"pixel_values": pixel_values, "input_ids": input_ids, "attention_mask": attention_mask}

def _clip_score_update(images, text, model, processor):
    if not isinstance(images, list):
        if images.ndim == 3:
            images = [images]
    else:
        images = list(images)
    if not all(i.ndim == 3 for i in images):
        raise ValueError("Expected all images to be 3d but found image that has either more or less")
    if not isinstance(text, list):
        text = [text]
    if len(text) != len(images):
        raise ValueError(
            f"Expected the number of images and text examples to be the same but got {len(images)} and {len(text)}"
        )
    device = images[0].device
    processed_input = processor(text=text, images=[i.cpu() for i in images], return_tensors="pt", padding=True)

    img_features = model.get_image_features(processed_input["pixel_values"].to(device))
    img_features = img_features / img_features.norm(p=2, dim=-1, keepdim=True)

    txt_features = model.get_text_features(
        processed_input["input_ids"].to(device), processed_input["attention_mask"].to(device)
    )
    txt_features = txt_features / txt_features.norm(p=2, dim=-1, keepdim=True)

    score = 100 * (img_features * txt_features).sum(axis=-1)
    return score, len(text)

class CLIPScore(Metric):
    is_differentiable = False
    higher_is_better = True
    full_state_update = True

    def __init__(self, model_name_or_path="openai/clip-vit-large-patch14"):
        super().__init__()
        self.model, self.processor = TinyCLIPModel(), TinyCLIPProcessor()
        self.add_state("score", torch.tensor(0.0), dist_reduce_fx="sum")
        self.add_state("n_samples", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, images, text):
        score, n_samples = _clip_score_update(images, text, self.model, self.processor)
        self.score += score.sum(0)
        self.n_samples += n_samples

    def compute(self):
        return torch.max(self.score / self.n_samples, torch.zeros_like(self.score))

device = torch.device("cuda:0")
metric = CLIPScore(model_name_or_path="openai/clip-vit-base-patch16").to(device)
images = [torch.randint(255, (3, 256, 256), dtype=torch.uint8, device=device) for _ in range(4)]
captions = ["a photo of a cat", "a photo of a dog", "a red car on the road", "two people on a beach"]
'''
CELL = '''
metric.update(images, captions)
clip_score = metric.compute()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
