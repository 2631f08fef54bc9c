"""TransReID training step with Side Information Embedding: the learnable `sie_embed` table is indexed by the batch's camera ids, which the training loop moves to the device together with the images.

Source: https://github.com/damo-cv/TransReID (processor/processor.py `do_train`: `target_cam = target_cam.to(device)`,
`target_view = target_view.to(device)`; model/backbones/vit_pytorch.py `TransReID.forward_features`:
`x = x + self.pos_embed + self.sie_xishu * self.sie_embed[camera_id]`).
Looks like an index-device trap (camera ids from the CPU loader used to index a GPU parameter table),
but the loop moves `target_cam`/`target_view` before the model call and the table is a registered
Parameter that follows `model.to(device)`. Stand-in: a tiny patch embedding and
one linear block in place of ViT-B/16; `meta` stands in for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class PatchEmbed(nn.Module):
    def __init__(self, in_chans=3, embed_dim=16, patch=8):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch, stride=patch)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)

class TransReID(nn.Module):
    def __init__(self, num_patches=8, embed_dim=16, camera=6, view=0, sie_xishu=3.0):
        super().__init__()
        self.patch_embed = PatchEmbed(embed_dim=embed_dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 1, embed_dim))
        self.cam_num = camera
        self.view_num = view
        self.sie_xishu = sie_xishu
        self.sie_embed = nn.Parameter(torch.zeros(camera, 1, embed_dim))
        nn.init.trunc_normal_(self.sie_embed, std=.02)
        self.blocks = nn.Sequential(nn.LayerNorm(embed_dim), nn.Linear(embed_dim, embed_dim), nn.GELU())
        self.norm = nn.LayerNorm(embed_dim)

    def forward_features(self, x, camera_id, view_id):
        B = x.shape[0]
        x = self.patch_embed(x)
        cls_tokens = self.cls_token.expand(B, -1, -1)
        x = torch.cat((cls_tokens, x), dim=1)
        if self.cam_num > 0 and self.view_num > 0:
            x = x + self.pos_embed + self.sie_xishu * self.sie_embed[camera_id * self.view_num + view_id]
        elif self.cam_num > 0:
            x = x + self.pos_embed + self.sie_xishu * self.sie_embed[camera_id]
        else:
            x = x + self.pos_embed
        x = self.norm(self.blocks(x))
        return x[:, 0]

class build_transformer(nn.Module):
    def __init__(self, num_classes, camera_num, view_num):
        super().__init__()
        self.base = TransReID(camera=camera_num, view=view_num)
        self.bottleneck = nn.BatchNorm1d(16)
        self.classifier = nn.Linear(16, num_classes, bias=False)

    def forward(self, x, label=None, cam_label=None, view_label=None):
        global_feat = self.base.forward_features(x, cam_label, view_label)
        feat = self.bottleneck(global_feat)
        return self.classifier(feat), global_feat

device = "meta"                       # "cuda" in processor.py
model = build_transformer(num_classes=751, camera_num=6, view_num=0).to(device)
model.train()
loss_fn = nn.CrossEntropyLoss()
# one batch from the Market-1501 train loader: (img, vid, target_cam, target_view)
train_batch = (torch.randn(8, 3, 16, 32), torch.tensor([5, 5, 9, 9, 13, 13, 20, 20]),
               torch.tensor([0, 3, 1, 5, 2, 2, 4, 0]), torch.zeros(8, dtype=torch.int64))
'''
CELL = '''
img, vid, target_cam, target_view = train_batch
img = img.to(device)
target = vid.to(device)
target_cam = target_cam.to(device)
target_view = target_view.to(device)
score, feat = model(img, target, cam_label=target_cam, view_label=target_view)
loss = loss_fn(score, target)
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
