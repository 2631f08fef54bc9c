"""MODEST (transparent-object monocular depth + segmentation): `Trainer.inference` feeds a CPU image to the model on cuda.

Source: https://github.com/D-Robotics-AI-Lab/MODEST/pull/3
"fix two errors when inference using cuda: 1. RuntimeError: Input type (torch.FloatTensor) and weight
type (torch.cuda.FloatTensor) should be the same ... 2. can't convert cuda:0 device type tensor to
numpy". `Trainer.__init__` puts the ISGNet model on `self.device` (config "device": "cuda"), but
`Trainer.inference` builds the image with `transform(image).unsqueeze(0)` and calls `self.model(image)`
without moving it; the fix sends the image to `self.device` (and `.cpu()`s the outputs before the
visualisation). Stand-ins: ISGNet reduced to a ViT patch embedding + position embedding and two heads;
the checkpoint load, PIL loading/transforms and the PNG writing are dropped (the method returns the
predictions). The fake conv does not check devices, so the position-embedding add raises first.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ISGNet(nn.Module):
    def __init__(self, image_size=(3, 384, 384), emb_dim=64, patch_size=16, nclasses=3):
        super().__init__()
        n = (image_size[1] // patch_size) * (image_size[2] // patch_size)
        self.patch_embed = nn.Conv2d(image_size[0], emb_dim, patch_size, stride=patch_size)
        self.pos_embed = nn.Parameter(torch.zeros(1, n, emb_dim))
        self.head_depth = nn.Linear(emb_dim, 1)
        self.head_seg = nn.Linear(emb_dim, nclasses)

    def forward(self, img):
        x = self.patch_embed(img).flatten(2).transpose(1, 2)
        x = x + self.pos_embed
        return [[self.head_depth(x)]], [[self.head_seg(x)]]

class Trainer(object):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.device = torch.device(config['Model']['device'])   # "cuda" -> cuda:0 on the user's GPU box
        self.model = ISGNet(image_size=(3, 384, 384))
        self.model.to(self.device)

    def inference(self, image_path):
        # checkpoint = torch.load(self.ckpt_path); self.model.load_state_dict(...)
        self.model.eval()
        image = torch.rand(3, 384, 384)   # Image.open(image_path) + Resize/ToTensor/Normalize
        image = image.unsqueeze(0)
        with torch.no_grad():
            output_depth, output_seg = self.model(image)
        return output_depth[-1][-1], output_seg[-1][-1]

config = {'Model': {'device': 'cuda:0', 'type': 'full'}}
image_path = "test image path"
trainer = Trainer(config)
'''
CELL = '''
depth, seg = trainer.inference(image_path)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type")
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        image = image.unsqueeze(0)\n",
    "        image = image.unsqueeze(0).to(self.device)\n",
)
CLEAN = False
