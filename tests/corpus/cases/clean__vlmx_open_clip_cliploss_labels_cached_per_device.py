"""open_clip's ClipLoss keeps a dict of cached label tensors keyed by device; labels are built on the logits' device.

Source: https://github.com/mlfoundations/open_clip/blob/main/src/open_clip/loss.py
`ClipLoss.get_ground_truth(device, num_logits)` creates `torch.arange(num_logits, device=device,
dtype=torch.long)` and, with `cache_labels=True`, stores it in `self.labels[device]` (a plain dict on
a module, which `Module.to()` never visits); `forward` passes `image_features.device`. The CLIP model
returns `self.logit_scale.exp()` alongside the normalized features. Look-alike: a loss module holding
tensors outside its parameters/buffers, and labels made inside forward, during a GPU fine-tuning step;
every tensor is on the features' device and it runs (twice, the second time from the cache).
Stand-ins: a toy CLIP (linear image/text towers, `logit_scale` parameter) for open_clip's model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class ClipLoss(nn.Module):
    def __init__(self, local_loss=False, gather_with_grad=False, cache_labels=False, rank=0, world_size=1):
        super().__init__()
        self.local_loss = local_loss
        self.gather_with_grad = gather_with_grad
        self.cache_labels = cache_labels
        self.rank = rank
        self.world_size = world_size
        # cache state
        self.prev_num_logits = 0
        self.labels = {}

    def get_ground_truth(self, device, num_logits) -> torch.Tensor:
        # calculated ground-truth and cache if enabled
        if self.prev_num_logits != num_logits or device not in self.labels:
            labels = torch.arange(num_logits, device=device, dtype=torch.long)
            if self.world_size > 1 and self.local_loss:
                labels = labels + num_logits * self.rank
            if self.cache_labels:
                self.labels[device] = labels
                self.prev_num_logits = num_logits
        else:
            labels = self.labels[device]
        return labels

    def get_logits(self, image_features, text_features, logit_scale):
        logits_per_image = logit_scale * image_features @ text_features.T
        logits_per_text = logit_scale * text_features @ image_features.T
        return logits_per_image, logits_per_text

    def forward(self, image_features, text_features, logit_scale, output_dict=False):
        device = image_features.device
        logits_per_image, logits_per_text = self.get_logits(image_features, text_features, logit_scale)
        labels = self.get_ground_truth(device, logits_per_image.shape[0])
        total_loss = (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)) / 2
        return {"contrastive_loss": total_loss} if output_dict else total_loss

class CLIP(nn.Module):                              # open_clip CLIP (toy towers)
    def __init__(self, d=32):
        super().__init__()
        self.visual = nn.Linear(3 * 8 * 8, d)
        self.token_embedding = nn.Embedding(100, d)
        self.text_projection = nn.Linear(d, d)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def forward(self, image, text):
        image_features = F.normalize(self.visual(image.flatten(1)), dim=-1)
        text_features = F.normalize(self.text_projection(self.token_embedding(text).mean(1)), dim=-1)
        return image_features, text_features, self.logit_scale.exp()

device = torch.device("cuda:0")
model = CLIP().to(device)
loss = ClipLoss(local_loss=False, gather_with_grad=False, cache_labels=True, rank=0, world_size=1)
batches = [(torch.randn(8, 3, 8, 8), torch.randint(0, 100, (8, 12))) for _ in range(2)]   # dataloader, CPU
'''
CELL = '''
with torch.no_grad():
    for images, texts in batches:
        images = images.to(device=device, non_blocking=True)
        texts = texts.to(device=device, non_blocking=True)
        image_features, text_features, logit_scale = model(images, texts)
        total_loss = loss(image_features, text_features, logit_scale)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
