"""transformers CLIP after "Update clip loss calculation": targets built with `device=logits.device`.

Source: https://github.com/huggingface/transformers/pull/13217
The PR replaces the diagonal log-softmax loss by
`nn.functional.cross_entropy(logits, torch.arange(len(logits), device=logits.device))` (the
reviewer's suggestion over `torch.arange(len(logits)).to(logits.device)`), with
`clip_loss(similarity)` averaging the caption and image directions. Look-alike: a fresh index tensor
made inside the loss function, next to logits on the GPU, and a Python float `logit_scale.exp()`
style scale; it runs because the arange is created on the logits' device. Stand-in: a tiny
two-tower CLIPModel (linear projections instead of the ViT / text transformer) keeping
`get_*_features`, the normalisation, `logit_scale` and `return_loss`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def contrastive_loss(logits: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(logits, torch.arange(len(logits), device=logits.device))

def clip_loss(similarity: torch.Tensor) -> torch.Tensor:
    caption_loss = contrastive_loss(similarity)
    image_loss = contrastive_loss(similarity.t())
    return (caption_loss + image_loss) / 2.0

class CLIPModel(nn.Module):
    def __init__(self, vocab_size=100, image_dim=48, hidden=32, projection_dim=16):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, hidden)
        self.vision_model = nn.Linear(image_dim, hidden)
        self.text_projection = nn.Linear(hidden, projection_dim, bias=False)
        self.visual_projection = nn.Linear(hidden, projection_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def get_text_features(self, input_ids):
        return self.text_projection(self.token_embedding(input_ids).mean(1))

    def get_image_features(self, pixel_values):
        return self.visual_projection(self.vision_model(pixel_values.flatten(1)))

    def forward(self, input_ids, pixel_values, return_loss=False):
        image_embeds = self.get_image_features(pixel_values)
        text_embeds = self.get_text_features(input_ids)
        image_embeds = image_embeds / image_embeds.norm(dim=-1, keepdim=True)
        text_embeds = text_embeds / text_embeds.norm(dim=-1, keepdim=True)
        logit_scale = self.logit_scale.exp()
        logits_per_text = torch.matmul(text_embeds, image_embeds.t()) * logit_scale
        logits_per_image = logits_per_text.t()
        loss = clip_loss(logits_per_text) if return_loss else None
        return loss, logits_per_image, logits_per_text

device = "cuda:0"
model = CLIPModel().to(device)
inputs = {"input_ids": torch.randint(0, 100, (4, 7)), "pixel_values": torch.rand(4, 3, 4, 4)}
inputs = {k: v.to(device) for k, v in inputs.items()}
'''
CELL = '''
loss, logits_per_image, logits_per_text = model(**inputs, return_loss=True)
probs = logits_per_image.softmax(dim=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
