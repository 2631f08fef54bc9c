"""CSWin-Transformer `reset_classifier` forces the new head onto the GPU while the rest of the model is still on the CPU.

Source: https://github.com/microsoft/CSWin-Transformer/pull/7
"reset_classifier: fix it to actually work, expose toggle param for gpu": besides using a missing
`self.out_dim`, `CSWinTransformer.reset_classifier` ended with `self.head = self.head.cuda()`, so a
model being built on the CPU (to be moved later, or fine-tuned on the CPU) got a GPU head beside a CPU
backbone and the forward mixed devices. The PR sizes the head from `self.head.in_features` and only
moves it to the GPU when asked (`to_gpu` flag). Stand-in: a small CSWin-like backbone (conv stem,
blocks, norm, mean pool, head) with the original reset; `.cuda()` is written `.to("cuda:0")` and the
init runs before the move (the simulator cannot init a fake cuda tensor in place).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class CSWinTransformer(nn.Module):
    def __init__(self, img_size=32, num_classes=1000, embed_dim=32, depth=2):
        super().__init__()
        self.num_classes = num_classes
        self.stage1_conv_embed = nn.Sequential(nn.Conv2d(3, embed_dim, 7, 4, 2), nn.Flatten(2))
        self.stage1 = nn.Sequential(*[nn.Sequential(nn.LayerNorm(embed_dim), nn.Linear(embed_dim, embed_dim), nn.GELU())
                                      for _ in range(depth)])
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    def reset_classifier(self, num_classes, global_pool=''):
        if self.num_classes != num_classes:
            print('reset head to', num_classes)
            self.num_classes = num_classes
            self.head = nn.Linear(self.head.in_features, num_classes) if num_classes > 0 else nn.Identity()
            nn.init.normal_(self.head.weight, std=.02)     # trunc_normal_ in CSWin
            if self.head.bias is not None:
                nn.init.constant_(self.head.bias, 0)
            self.head = self.head.to("cuda:0")        # self.head = self.head.cuda()

    def forward_features(self, x):
        x = self.stage1_conv_embed(x).transpose(1, 2)
        x = self.stage1(x)
        return torch.mean(self.norm(x), dim=1)

    def forward(self, x):
        return self.head(self.forward_features(x))

model = CSWinTransformer()          # CSWin_64_12211_tiny_224(), pretrained weights loaded on the CPU
model.reset_classifier(10)          # fine-tune on a 10-class dataset
model.eval()
images = torch.randn(2, 3, 32, 32)
'''
CELL = '''
with torch.no_grad():
    output = model(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.head"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to("cuda:0")
images = images.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
