"""Kosmos-2 under torch.autocast: the merge moves image features to the text device but not its dtype.

Source: https://github.com/huggingface/transformers/issues/47689
`Kosmos2TextTransformer.forward_embedding` writes the projected image features into the token
embeddings with `inputs_embeds[img_input_mask.to(dtype=torch.bool)] = image_embeds.to(inputs_embeds.device)...`.
Under `torch.autocast(dtype=torch.bfloat16)` the embeddings come from `nn.Embedding` (not on
autocast's list, stays float32) while the image features end in an `nn.Linear` (bfloat16), and the
advanced-index assignment raised "Index put requires the source and destination dtypes match, got
Float for the destination and BFloat16 for the source". The fix passes the dtype with the device.
Stand-in: Kosmos-2's vision -> projection -> text-embedding merge at toy size.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class Kosmos2VisionModel(nn.Module):
    def __init__(self, hidden=24, patch=8):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, hidden, kernel_size=patch, stride=patch)
        self.post_layernorm = nn.LayerNorm(hidden)

    def forward(self, pixel_values):
        x = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        return self.post_layernorm(x)

class Kosmos2ImageToTextProjection(nn.Module):
    def __init__(self, vis_dim=24, embed_dim=32, num_latents=4):
        super().__init__()
        self.dense = nn.Linear(vis_dim, embed_dim)
        self.latent_query = nn.Parameter(torch.randn(num_latents, embed_dim))
        self.out = nn.Linear(embed_dim, embed_dim)

    def forward(self, features):
        hidden_states = self.dense(features)                       # (B, P, D)
        attn = torch.softmax(self.latent_query @ hidden_states.transpose(1, 2), dim=-1)
        return self.out(attn @ hidden_states)                      # (B, num_latents, D)

class Kosmos2TextTransformer(nn.Module):
    def __init__(self, vocab=100, embed_dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, embed_dim)
        self.embed_scale = embed_dim ** 0.5
        self.layer = nn.Linear(embed_dim, embed_dim)
        self.lm_head = nn.Linear(embed_dim, vocab, bias=False)

    def forward_embedding(self, input_ids, image_embeds=None, img_input_mask=None):
        inputs_embeds = self.embed_tokens(input_ids) * self.embed_scale
        if image_embeds is not None:
            inputs_embeds[img_input_mask.to(dtype=torch.bool)] = image_embeds.to(inputs_embeds.device).view(
                -1, image_embeds.size(-1)
            )
        return inputs_embeds

    def forward(self, input_ids, image_embeds=None, image_embeds_position_mask=None):
        hidden_states = self.forward_embedding(input_ids, image_embeds, image_embeds_position_mask)
        return self.lm_head(torch.relu(self.layer(hidden_states)))

class Kosmos2Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision_model = Kosmos2VisionModel()
        self.image_to_text_projection = Kosmos2ImageToTextProjection()
        self.text_model = Kosmos2TextTransformer()

    def forward(self, pixel_values, input_ids, image_embeds_position_mask):
        image_embeds = self.image_to_text_projection(self.vision_model(pixel_values))
        image_embeds = nn.functional.normalize(image_embeds, dim=-1)
        return self.text_model(input_ids, image_embeds, image_embeds_position_mask)

model = Kosmos2Model().eval()
pixel_values = torch.randn(1, 3, 32, 32)
input_ids = torch.randint(3, 100, (1, 10))
image_embeds_position_mask = torch.zeros(1, 10, dtype=torch.long)
image_embeds_position_mask[0, 2:6] = 1          # the four <image> placeholder tokens
'''
CELL = '''
with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
    logits = model(pixel_values=pixel_values, input_ids=input_ids,
                   image_embeds_position_mask=image_embeds_position_mask)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.text_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "image_embeds.to(inputs_embeds.device).view(",
    "image_embeds.to(inputs_embeds.device, inputs_embeds.dtype).view(",
)
CLEAN = False
