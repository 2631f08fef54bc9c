"""InternVL chat: pixel_values from load_image() left in float32 while the model was loaded in bfloat16.

Source: https://github.com/OpenGVLab/InternVL/issues/602
The user loaded a fine-tuned InternVL2 with `torch_dtype=torch.bfloat16` and called
`model.chat(tokenizer, pixel_values, question, generation_config)`; `extract_feature` ran the
InternViT patch embedding and raised "Input type (float) and bias type (c10::BFloat16) should be
the same". The README's quick-start casts `load_image(...).to(torch.bfloat16).cuda()`; the user's
script dropped the dtype. Stand-in: InternVLChatModel's chat -> generate -> extract_feature path
(vision patch conv, pixel shuffle, mlp1) at toy size, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class InternVisionEmbeddings(nn.Module):
    def __init__(self, embed_dim=32, patch_size=8):
        super().__init__()
        self.class_embedding = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.patch_embedding = nn.Conv2d(3, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, pixel_values):
        target_dtype = self.patch_embedding.weight.dtype
        patch_embeds = self.patch_embedding(pixel_values)          # the user's float32 image goes in as is
        patch_embeds = patch_embeds.flatten(2).transpose(1, 2)
        class_embeds = self.class_embedding.expand(patch_embeds.shape[0], 1, -1).to(target_dtype)
        return torch.cat([class_embeds, patch_embeds], dim=1)

class InternVisionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = InternVisionEmbeddings()
        self.encoder = nn.Linear(32, 32)

    def forward(self, pixel_values):
        return self.encoder(self.embeddings(pixel_values))

class InternVLChatModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision_model = InternVisionModel()
        self.mlp1 = nn.Sequential(nn.LayerNorm(32 * 4), nn.Linear(32 * 4, 48), nn.GELU(), nn.Linear(48, 48))
        self.embed_tokens = nn.Embedding(100, 48)
        self.lm_head = nn.Linear(48, 100, bias=False)

    def extract_feature(self, pixel_values):
        vit_embeds = self.vision_model(pixel_values)[:, 1:, :]       # drop CLS: 16 patches
        b, n, c = vit_embeds.shape
        vit_embeds = vit_embeds.reshape(b, n // 4, c * 4)            # pixel shuffle stand-in
        return self.mlp1(vit_embeds)

    @torch.no_grad()
    def generate(self, pixel_values, input_ids):
        vit_embeds = self.extract_feature(pixel_values)
        input_embeds = self.embed_tokens(input_ids)
        input_embeds = torch.cat([vit_embeds.reshape(1, -1, 48), input_embeds], dim=1)
        return self.lm_head(input_embeds).argmax(-1)

    def chat(self, tokenizer, pixel_values, question, generation_config):
        input_ids = tokenizer(question)
        return self.generate(pixel_values, input_ids)

def tokenizer(text):
    return torch.tensor([[ord(c) % 100 for c in text]])

model = InternVLChatModel().to(torch.bfloat16).eval()   # from_pretrained(path, torch_dtype=torch.bfloat16)
generation_config = dict(max_new_tokens=1024, do_sample=False)
# load_image(image_file, max_num=12): 448px tiles, ToTensor + Normalize -> float32
pixel_values = torch.randn(2, 3, 32, 32)
'''
CELL = '''
question = "<image>\\nPlease describe the image shortly."
response = model.chat(tokenizer, pixel_values, question, generation_config)
'''
EXPECT_ERROR = "should be the same"
CULPRITS = ["pixel_values"]
FIX = "namespace"
REFERENCE_FIX = '''
pixel_values = pixel_values.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
