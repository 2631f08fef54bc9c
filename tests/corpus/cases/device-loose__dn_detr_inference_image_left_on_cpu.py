"""DN-DETR's inference notebook: the model is built on 'cuda' but the transformed image stays on the CPU.

Source: https://github.com/IDEA-Research/DN-DETR/issues/58
"I want to visualize the results, but when I run python inference.py" - "RuntimeError: Expected all
tensors to be on the same device, but found at least two devices, cpu and cuda:0!" at
`output, _ = model(image[None], 0)`. `build_model_main(args)` with `args.device = 'cuda'` puts the
model on the GPU, while `image, _ = transform(image, None)` is a CPU tensor; the answer that
resolved it moves the image (`image[None].cuda()`). Stand-in: a DETR-like model (FrozenBatchNorm2d
backbone, input projection, one cross-attention step of learned queries, class/box heads) built by `build_model_main`;
the PIL image and its transform by a random tensor and a normalize; the GPU is meta.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class FrozenBatchNorm2d(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("weight", torch.ones(n))
        self.register_buffer("bias", torch.zeros(n))
        self.register_buffer("running_mean", torch.zeros(n))
        self.register_buffer("running_var", torch.ones(n))

    def forward(self, x):
        scale = self.weight * (self.running_var + 1e-5).rsqrt()
        bias = self.bias - self.running_mean * scale
        return x * scale.reshape(1, -1, 1, 1) + bias.reshape(1, -1, 1, 1)

class DABDETR(nn.Module):
    def __init__(self, num_classes=91, num_queries=10, hidden_dim=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 7, 4, 3, bias=False), FrozenBatchNorm2d(16), nn.ReLU())
        self.input_proj = nn.Conv2d(16, hidden_dim, 1)
        self.query_embed = nn.Embedding(num_queries, hidden_dim)
        self.decoder = nn.Linear(hidden_dim, hidden_dim)
        self.class_embed = nn.Linear(hidden_dim, num_classes + 1)
        self.bbox_embed = nn.Linear(hidden_dim, 4)

    def forward(self, samples, dn_args=0):
        src = self.input_proj(self.backbone(samples)).flatten(2).transpose(1, 2)
        tgt = self.query_embed.weight.unsqueeze(0).repeat(src.shape[0], 1, 1)
        attn = torch.softmax(tgt @ src.transpose(1, 2) / src.shape[-1] ** 0.5, dim=-1)
        hs = self.decoder(tgt + attn @ src)
        out = {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}
        return out, None

class PostProcess(nn.Module):
    @torch.no_grad()
    def forward(self, outputs, target_sizes):
        prob = outputs["pred_logits"].sigmoid()
        img_h, img_w = target_sizes.unbind(1)
        scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1)
        return [{"scores": p.max(-1).values, "boxes": b * s} for p, b, s in
                zip(prob, outputs["pred_boxes"], scale_fct[:, None, :])]

def build_model_main(args):
    model = DABDETR()
    model.to(torch.device(args.device))
    return model, None, {"bbox": PostProcess()}

args = SimpleNamespace(device="meta")             # SLConfig.fromfile(model_config_path); args.device = 'cuda'
model, criterion, postprocessors = build_model_main(args)
_ = model.eval()

def transform(image, target):                    # T.Compose([T.RandomResize([800], max_size=1333), ToTensor, Normalize])
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    return (image - mean) / std, target

image = torch.rand(3, 64, 80)                    # Image.open("./figs/idea.jpg").convert("RGB")
image, _ = transform(image, None)
'''
CELL = '''
output, _ = model(image[None], 0)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["image"]
FIX = "namespace"
REFERENCE_FIX = '''
image = image.to("meta")
'''
REFERENCE_EDIT = None
CLEAN = False
