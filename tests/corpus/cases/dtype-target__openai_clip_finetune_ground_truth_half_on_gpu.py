"""Fine-tuning CLIP with the training loop from the "CLIP Training Code" thread: the GPU branch makes half targets.

Source: https://github.com/openai/CLIP/issues/83
The loop shared in the thread built the contrastive targets with
`ground_truth = torch.arange(BATCH_SIZE).half().to(device)` whenever `device` was not the CPU
(the model from `clip.load(..., device="cuda")` runs in fp16), and users got "Expected object of
scalar type Long but got scalar type Half for argument #2 'target'" in
`loss_img(logits_per_image, ground_truth)`. The author corrected it to
`torch.arange(BATCH_SIZE, dtype=torch.long, device=device)`: class-index targets are always long.
Stand-in: a toy fp16 CLIP; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "dtype-target"
SETUP = '''
import torch
from torch import nn, optim

class CLIP(nn.Module):
    def __init__(self, embed_dim=16, vocab=100):
        super().__init__()
        self.visual = nn.Sequential(nn.Conv2d(3, 32, 8, stride=8), nn.Flatten(1), nn.Linear(32 * 16, embed_dim))
        self.token_embedding = nn.Embedding(vocab, 32)
        self.text_projection = nn.Linear(32, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.ones([]) * 2.6592)

    def encode_image(self, image):
        return self.visual(image.type(self.visual[0].weight.dtype))

    def encode_text(self, text):
        return self.text_projection(self.token_embedding(text).mean(1))

    def forward(self, image, text):
        image_features = self.encode_image(image)
        text_features = self.encode_text(text)
        image_features = image_features / image_features.norm(dim=-1, keepdim=True)
        text_features = text_features / text_features.norm(dim=-1, keepdim=True)
        logits_per_image = self.logit_scale.exp() * image_features @ text_features.t()
        return logits_per_image, logits_per_image.t()

device = "meta"        # "cuda:0" if torch.cuda.is_available() else "cpu": the GPU, simulated with meta
BATCH_SIZE = 8
model = CLIP().half().to(device)        # clip.load("ViT-B/32", device=device, jit=False): fp16 on the GPU
loss_img = nn.CrossEntropyLoss()
loss_txt = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=5e-5, betas=(0.9, 0.98), eps=1e-6, weight_decay=0.2)

if device == "cpu":
    ground_truth = torch.arange(BATCH_SIZE).long().to(device)
else:
    ground_truth = torch.arange(BATCH_SIZE).half().to(device)

# one batch of the image-caption loader, sent to the device
images = torch.randn(BATCH_SIZE, 3, 32, 32).to(device)
texts = torch.randint(0, 100, (BATCH_SIZE, 12)).to(device)
'''
CELL = '''
optimizer.zero_grad()
logits_per_image, logits_per_text = model(images, texts)
total_loss = (loss_img(logits_per_image, ground_truth) + loss_txt(logits_per_text, ground_truth)) / 2
total_loss.backward()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "Expected dtype int32/int64 for index", "expected scalar type Long")
CULPRITS = ["ground_truth"]
FIX = "namespace"
REFERENCE_FIX = '''
ground_truth = ground_truth.long()
'''
REFERENCE_EDIT = None
CLEAN = False
