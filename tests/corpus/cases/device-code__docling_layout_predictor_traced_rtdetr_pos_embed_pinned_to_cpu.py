"""docling LayoutPredictor moved to the GPU: the TorchScript RT-DETR encoder sends its positional embedding to the CPU.

Source: https://github.com/docling-project/docling-ibm-models/issues/55
The user added `self.model.to(self.device)` in `LayoutPredictor.__init__` and moved `img` and
`orig_size` to the device in `predict`, then got "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu!". The traceback shows the traced (torch.jit.trace on a
CPU) hybrid_encoder code: `pos_embed = torch.to(_24, dtype=6, layout=0, device=torch.device("cpu"))`:
tracing froze RT-DETR's `.to(src_flatten.device)` as a constant CPU device, so the positional
embedding lands on the CPU whatever device the module was moved to. Stand-in: the traced encoder as
a Python module that keeps the frozen `device=torch.device("cpu")`, a small backbone and decoder head.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

def build_2d_sincos_position_embedding(w, h, embed_dim=32, temperature=10000.0):
    grid_w = torch.arange(int(w), dtype=torch.float32)
    grid_h = torch.arange(int(h), dtype=torch.float32)
    grid_w, grid_h = torch.meshgrid(grid_w, grid_h, indexing="ij")
    pos_dim = embed_dim // 4
    omega = 1.0 / (temperature ** (torch.arange(pos_dim, dtype=torch.float32) / pos_dim))
    out_w = grid_w.flatten()[..., None] @ omega[None]
    out_h = grid_h.flatten()[..., None] @ omega[None]
    return torch.cat([out_w.sin(), out_w.cos(), out_h.sin(), out_h.cos()], dim=1)[None, :, :]

class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model=32, nhead=4):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)

    def forward(self, src, pos_embed):
        q = k = src + pos_embed
        src2, _ = self.self_attn(q, k, value=src)
        return self.norm1(src + src2)

class TracedHybridEncoder(nn.Module):
    """What torch.jit.trace kept of RT-DETR's HybridEncoder (traced on a CPU)."""
    def __init__(self, hidden_dim=32, spatial=(8, 8)):
        super().__init__()
        self.input_proj = nn.Conv2d(16, hidden_dim, 1)
        self.layer = TransformerEncoderLayer(hidden_dim)
        self.register_buffer("pos_embed2", build_2d_sincos_position_embedding(*spatial, hidden_dim))

    def forward(self, feat):
        proj = self.input_proj(feat)
        h, w = proj.shape[2:]
        src_flatten = proj.flatten(2).permute(0, 2, 1)
        pos_embed = self.pos_embed2.to(dtype=torch.float32, device=torch.device("cpu"))
        memory = self.layer(src_flatten, pos_embed)
        return memory.permute(0, 2, 1).reshape(-1, proj.shape[1], h, w)

class RTDETR(nn.Module):
    def __init__(self, num_classes=11):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU())
        self.encoder = TracedHybridEncoder()
        self.class_head = nn.Linear(32, num_classes)
        self.box_head = nn.Linear(32, 4)

    def forward(self, images, orig_target_sizes):
        memory = self.encoder(self.backbone(images)).flatten(2).transpose(1, 2)
        logits, boxes = self.class_head(memory), self.box_head(memory).sigmoid()
        scores, labels = logits.softmax(-1).max(-1)
        return labels, boxes * orig_target_sizes.repeat(1, 2)[:, None, :], scores

class LayoutPredictor:
    def __init__(self, artifact_path=None, use_cpu_only=False):
        self._use_cpu_only = use_cpu_only
        self.model = RTDETR().eval()          # torch.jit.load(<artifact_path>/model.pt)
        self.device = torch.device("cuda:0")  # "cuda" if torch.cuda.is_available() and not use_cpu_only
        self.model.to(self.device)

    def predict(self, page_img):
        w, h = page_img.shape[-1], page_img.shape[-2]
        img = page_img[None].to(self.device)
        orig_size = torch.tensor([w, h])[None].to(self.device)
        with torch.no_grad():
            labels, boxes, scores = self.model(img, orig_size)
        return labels.cpu(), boxes.cpu(), scores.cpu()

predictor = LayoutPredictor("ds4sd/docling-models/model_artifacts/layout")
page_img = torch.rand(3, 32, 32)        # transforms(page_img) of the 640x640 page
'''
CELL = '''
labels, boxes, scores = predictor.predict(page_img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["predictor.model.encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('pos_embed = self.pos_embed2.to(dtype=torch.float32, device=torch.device("cpu"))',
                  'pos_embed = self.pos_embed2.to(dtype=torch.float32, device=src_flatten.device)')
CLEAN = False
