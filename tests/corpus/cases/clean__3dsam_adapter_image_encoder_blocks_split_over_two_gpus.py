"""Look-alike: 3DSAM-adapter puts the first six ViT blocks of the 3D image encoder on one GPU and the last six on another, moving the tokens between the two loops.

Source: https://github.com/med-air/3DSAM-adapter/issues/2
"Out of Memory": the KiTS example needs ~35 GB; the author answered "I split the model into 2 parts
and assign each parts to different GPUs ... we use two for loops to handle blocks[:6] and
blocks[6:12] separately" in image_encoder.py. Blocks 0-5 (with the patch embedding and position
embedding) live on cuda:0, blocks 6-11 and the neck on cuda:1, and the forward moves the hidden
states to the second device between the loops; the prompt encoder/decoder run on cuda:1 with the
features. Two devices on purpose; every op sees one. Stand-ins: small ViT blocks, a conv neck, a
linear mask head; inference only.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, dim, num_heads=4):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, num_heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))

class ImageEncoderViT_3d(nn.Module):
    def __init__(self, img_size=32, patch_size=8, embed_dim=48, depth=12, out_chans=32):
        super().__init__()
        self.patch_embed = nn.Conv3d(1, embed_dim, kernel_size=patch_size, stride=patch_size)
        n = (img_size // patch_size) ** 3
        self.pos_embed = nn.Parameter(torch.zeros(1, n, embed_dim))
        self.blocks = nn.ModuleList([Block(embed_dim) for _ in range(depth)])
        self.neck = nn.Sequential(nn.Linear(embed_dim, out_chans), nn.LayerNorm(out_chans))

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2) + self.pos_embed
        for blk in self.blocks[:6]:
            x = blk(x)
        x = x.to(self.blocks[6].mlp[0].weight.device)      # hand over to the second GPU
        for blk in self.blocks[6:12]:
            x = blk(x)
        return self.neck(x)

device0, device1 = torch.device("cuda:0"), torch.device("cuda:1")
img_encoder = ImageEncoderViT_3d().to(device0)
for i in range(6, 12):
    img_encoder.blocks[i].to(device1)
img_encoder.neck.to(device1)
mask_decoder = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1)).to(device1)
image = torch.rand(1, 1, 32, 32, 32)
'''
CELL = '''
img_encoder.eval()
with torch.no_grad():
    feature = img_encoder(image.to(device0))
    masks = mask_decoder(feature)
    pred = torch.sigmoid(masks)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
