"""SAM 3 detector on the CPU: `TransformerDecoder` precomputes its box-RPB coordinates with a hard-coded `device="cuda"`.

Source: https://github.com/facebookresearch/sam3/pull/188
Running SAM 3 image inference on the CPU (on a machine that has a GPU) fails with "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu!" in
`TransformerDecoder._get_rpb_matrix` at `deltas_y = coords_h.view(1, -1, 1) - boxes_xyxy...`. The
PR: "caused by hard-coded device usage in TransformerDecoder coordinate computations" - `__init__`
fills `compilable_cord_cache` with `self._get_coords(feat_size, feat_size, device="cuda")`, a plain
tuple that `_get_rpb_matrix` reuses for the matching feature size; the fix removes the fixed device
(here the coordinates are made on the module's own device).
Stand-in: the DETR-style decoder reduced to the query/reference-point embeddings, the box-RPB MLPs,
one cross-attention with the RPB mask and the box head; the backbone is one strided conv. The model
is built and run on the CPU; the hard-coded "cuda" is the simulated GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def box_cxcywh_to_xyxy(x):
    x_c, y_c, w, h = x.unbind(-1)
    return torch.stack([(x_c - 0.5 * w), (y_c - 0.5 * h), (x_c + 0.5 * w), (y_c + 0.5 * h)], dim=-1)

class MLP(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, num_layers):
        super().__init__()
        h = [hidden_dim] * (num_layers - 1)
        self.layers = nn.ModuleList(nn.Linear(n, k) for n, k in zip([input_dim] + h, h + [output_dim]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = F.relu(layer(x)) if i < len(self.layers) - 1 else layer(x)
        return x

class TransformerDecoder(nn.Module):
    def __init__(self, d_model=32, num_queries=10, nheads=4, boxRPB="log", resolution=None, stride=None):
        super().__init__()
        self.d_model, self.num_queries, self.nheads = d_model, num_queries, nheads
        self.query_embed = nn.Embedding(num_queries, d_model)
        self.reference_points = nn.Embedding(num_queries, 4)
        self.cross_attn = nn.MultiheadAttention(d_model, nheads)
        self.norm = nn.LayerNorm(d_model)
        self.bbox_embed = MLP(d_model, d_model, 4, 3)
        self.boxRPB = boxRPB
        self.boxRPB_embed_x = MLP(2, d_model, nheads, 2)
        self.boxRPB_embed_y = MLP(2, d_model, nheads, 2)
        self.compilable_cord_cache = None
        self.compilable_stored_size = None
        self.coord_cache = {}
        if resolution is not None and stride is not None:
            feat_size = resolution // stride
            coords_h, coords_w = self._get_coords(feat_size, feat_size, device="cuda")
            self.compilable_cord_cache = (coords_h, coords_w)
            self.compilable_stored_size = (feat_size, feat_size)

    @staticmethod
    def _get_coords(H, W, device):
        coords_h = torch.arange(0, H, device=device, dtype=torch.float32) / H
        coords_w = torch.arange(0, W, device=device, dtype=torch.float32) / W
        return coords_h, coords_w

    def _get_rpb_matrix(self, reference_boxes, feat_size):
        H, W = feat_size
        boxes_xyxy = box_cxcywh_to_xyxy(reference_boxes).transpose(0, 1)
        bs, num_queries, _ = boxes_xyxy.shape
        if self.compilable_cord_cache is None:
            self.compilable_cord_cache = self._get_coords(H, W, reference_boxes.device)
            self.compilable_stored_size = (H, W)
        if self.compilable_stored_size == (H, W):
            coords_h, coords_w = self.compilable_cord_cache
        else:
            if feat_size not in self.coord_cache:
                self.coord_cache[feat_size] = self._get_coords(H, W, reference_boxes.device)
            coords_h, coords_w = self.coord_cache[feat_size]
        deltas_y = coords_h.view(1, -1, 1) - boxes_xyxy.reshape(-1, 1, 4)[:, :, 1:4:2]
        deltas_y = deltas_y.view(bs, num_queries, -1, 2)
        deltas_x = coords_w.view(1, -1, 1) - boxes_xyxy.reshape(-1, 1, 4)[:, :, 0:3:2]
        deltas_x = deltas_x.view(bs, num_queries, -1, 2)
        if self.boxRPB in ["log", "both"]:
            deltas_x_log = deltas_x * 8
            deltas_x = torch.sign(deltas_x_log) * torch.log2(torch.abs(deltas_x_log) + 1.0) / np.log2(8)
            deltas_y_log = deltas_y * 8
            deltas_y = torch.sign(deltas_y_log) * torch.log2(torch.abs(deltas_y_log) + 1.0) / np.log2(8)
        deltas_x = self.boxRPB_embed_x(deltas_x)
        deltas_y = self.boxRPB_embed_y(deltas_y)
        B = deltas_y.unsqueeze(3) + deltas_x.unsqueeze(2)
        B = B.flatten(2, 3)
        B = B.permute(0, 3, 1, 2)
        return B.contiguous()

    def forward(self, memory, feat_size):
        bs = memory.shape[1]
        tgt = self.query_embed.weight[:, None].repeat(1, bs, 1)
        reference_boxes = self.reference_points.weight.sigmoid()[:, None].repeat(1, bs, 1)
        memory_mask = self._get_rpb_matrix(reference_boxes, feat_size).flatten(0, 1)
        out = self.cross_attn(tgt, memory, memory, attn_mask=memory_mask)[0]
        hs = self.norm(tgt + out)
        return hs, self.bbox_embed(hs).sigmoid()

class Sam3Transformer(nn.Module):
    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder

class Sam3Image(nn.Module):
    def __init__(self, resolution=64, stride=8, d_model=32):
        super().__init__()
        self.backbone = nn.Conv2d(3, d_model, stride, stride)
        self.transformer = Sam3Transformer(TransformerDecoder(d_model, resolution=resolution, stride=stride))
        self.class_embed = nn.Linear(d_model, 1)

    def forward(self, image):
        feats = self.backbone(image)
        H, W = feats.shape[-2:]
        memory = feats.flatten(2).permute(2, 0, 1)
        hs, boxes = self.transformer.decoder(memory, (H, W))
        return {"pred_logits": self.class_embed(hs).transpose(0, 1), "pred_boxes": boxes.transpose(0, 1)}

def build_sam3_image_model(device="cuda"):
    model = Sam3Image()
    return model.to(device).eval()

device = "cpu"                                  # CPU inference
model = build_sam3_image_model(device=device)
image = torch.rand(1, 3, 64, 64, device=device)
'''
CELL = '''
with torch.no_grad():
    outputs = model(image)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.transformer.decoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('coords_h, coords_w = self._get_coords(feat_size, feat_size, device="cuda")',
                  'coords_h, coords_w = self._get_coords(feat_size, feat_size, device=self.query_embed.weight.device)')
CLEAN = False
