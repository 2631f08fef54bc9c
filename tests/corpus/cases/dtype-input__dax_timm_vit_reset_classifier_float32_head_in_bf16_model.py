"""timm VisionTransformer cast to bfloat16, then `reset_classifier(num_classes)` for fine-tuning builds a float32 head.

Source: https://github.com/huggingface/pytorch-image-models/pull/2751
"Preserve Vision Transformer classifier device and dtype on reset": `VisionTransformer.reset_classifier`
created the replacement `nn.Linear` head with PyTorch's CPU/float32 defaults, so resetting the head of a
model already moved to another dtype left a mixed-dtype model and the next forward failed. The PR
derives dtype/device from the existing parameters. Stand-in: a tiny ViT (patch conv, cls token, MLP
blocks, norm, head) with timm's reset path; the user casts the pretrained backbone to bf16 and resets
the head to 10 classes for fine-tuning (dtype bug only, on the CPU).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))

class VisionTransformer(nn.Module):
    def __init__(self, img_size=32, patch_size=8, num_classes=1000, embed_dim=64, depth=2, global_pool='token'):
        super().__init__()
        self.num_classes = num_classes
        self.global_pool = global_pool
        self.embed_dim = embed_dim
        self.patch_embed = nn.Conv2d(3, embed_dim, patch_size, patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, (img_size // patch_size) ** 2 + 1, embed_dim) * .02)
        self.blocks = nn.Sequential(*[Block(embed_dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    def reset_classifier(self, num_classes, global_pool=None):
        self.num_classes = num_classes
        if global_pool is not None:
            self.global_pool = global_pool
        self.head = nn.Linear(self.embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    def forward_features(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1) + self.pos_embed
        return self.norm(self.blocks(x))

    def forward_head(self, x):
        x = x[:, 0] if self.global_pool == 'token' else x.mean(dim=1)
        return self.head(x)

    def forward(self, x):
        return self.forward_head(self.forward_features(x))

model = VisionTransformer()                 # timm.create_model('vit_base_patch16_224', pretrained=True)
model = model.to(torch.bfloat16)
model.reset_classifier(10)                  # new head for the downstream task
images = torch.randn(4, 3, 32, 32).to(torch.bfloat16)
'''
CELL = '''
logits = model(images)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "same dtype", "expected scalar type")
CULPRITS = ["model.head"]
FIX = "namespace"
REFERENCE_FIX = '''
model.head.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
