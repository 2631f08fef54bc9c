"""Hugging Face CLIPModel fine-tuning step: `position_ids` is a non-persistent buffer and the loss labels are made on the logits' device.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/clip/modeling_clip.py
`CLIPTextEmbeddings` registers `position_ids` with `register_buffer(..., persistent=False)`, so it is
absent from the state dict yet follows `model.to(device)`; `CLIPModel.forward(..., return_loss=True)`
computes `clip_loss`, whose `contrastive_loss` builds its targets as
`torch.arange(len(logits), device=logits.device)`. Look-alike: a tensor created inside forward and a
buffer missing from `state_dict()`, with processor outputs moved by `BatchEncoding.to(device)`; it runs.
Stand-ins: a toy CLIPModel (token + position embeddings, linear towers and projections) and the
processor's BatchEncoding.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def contrastive_loss(logits: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(logits, torch.arange(len(logits), device=logits.device))

def clip_loss(similarity: torch.Tensor) -> torch.Tensor:
    caption_loss = contrastive_loss(similarity)
    image_loss = contrastive_loss(similarity.t())
    return (caption_loss + image_loss) / 2.0

class CLIPTextEmbeddings(nn.Module):
    def __init__(self, vocab_size=100, max_position_embeddings=12, embed_dim=32):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, embed_dim)
        self.position_embedding = nn.Embedding(max_position_embeddings, embed_dim)
        # position_ids (1, len position emb) is contiguous in memory and exported when serialized
        self.register_buffer(
            "position_ids", torch.arange(max_position_embeddings).expand((1, -1)), persistent=False
        )

    def forward(self, input_ids):
        seq_length = input_ids.shape[-1]
        position_ids = self.position_ids[:, :seq_length]
        return self.token_embedding(input_ids) + self.position_embedding(position_ids)

class CLIPModel(nn.Module):
    def __init__(self, embed_dim=32, projection_dim=16):
        super().__init__()
        self.text_embeddings = CLIPTextEmbeddings(embed_dim=embed_dim)
        self.text_encoder = nn.Linear(embed_dim, embed_dim)
        self.vision_encoder = nn.Linear(3 * 8 * 8, embed_dim)
        self.visual_projection = nn.Linear(embed_dim, projection_dim, bias=False)
        self.text_projection = nn.Linear(embed_dim, projection_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.tensor(2.6592))

    def forward(self, input_ids, pixel_values, attention_mask=None, return_loss=False):
        image_embeds = self.visual_projection(self.vision_encoder(pixel_values.flatten(1)))
        text_embeds = self.text_projection(self.text_encoder(self.text_embeddings(input_ids)).mean(1))
        image_embeds = image_embeds / image_embeds.norm(p=2, dim=-1, keepdim=True)
        text_embeds = text_embeds / text_embeds.norm(p=2, dim=-1, keepdim=True)
        logits_per_text = torch.matmul(text_embeds, image_embeds.t()) * self.logit_scale.exp()
        logits_per_image = logits_per_text.t()
        loss = clip_loss(logits_per_text) if return_loss else None
        return {"loss": loss, "logits_per_image": logits_per_image, "logits_per_text": logits_per_text}

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

device = "cuda:0"
model = CLIPModel().to(device)
# processor(text=captions, images=images, return_tensors="pt", padding=True)
batch = BatchEncoding({"input_ids": torch.randint(0, 100, (4, 10)),
                       "attention_mask": torch.ones(4, 10, dtype=torch.long),
                       "pixel_values": torch.randn(4, 3, 8, 8)})
'''
CELL = '''
inputs = batch.to(device)
with torch.no_grad():
    outputs = model(**inputs, return_loss=True)
loss = outputs["loss"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
