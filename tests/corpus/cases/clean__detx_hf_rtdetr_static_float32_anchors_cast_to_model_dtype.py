"""Look-alike: Hugging Face RT-DETR keeps precomputed float32 CPU anchors as plain attributes of a bf16 model and casts them in `forward`.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/rt_detr/modeling_rt_detr.py
With `config.anchor_image_size` set, `RTDetrModel.__init__` precomputes `self.anchors, self.valid_mask =
self.generate_anchors(...)` - plain tensor attributes, made in float32 on the CPU, which
`model.to(dtype=torch.bfloat16)` does not touch. That is by design: `forward` casts them with
`anchors.to(device, dtype)` / `valid_mask.to(device, dtype)` to the flattened sources before they meet
the bf16 encoder output. float32 anchors next to a bf16 model are right here: no finding expected.
Stand-in: the anchor generation and the encoder-output part of `RTDetrModel.forward` (enc_output,
enc_score_head, enc_bbox_head, top-k query selection); backbone and encoder by one strided conv.
bfloat16 on the CPU stands for float16/bfloat16 on CUDA.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class RTDetrMLPPredictionHead(nn.Module):
    def __init__(self, input_dim, d, output_dim, num_layers):
        super().__init__()
        h = [d] * (num_layers - 1)
        self.layers = nn.ModuleList(nn.Linear(n, k) for n, k in zip([input_dim] + h, h + [output_dim]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = torch.relu(layer(x)) if i < len(self.layers) - 1 else layer(x)
        return x

class RTDetrModel(nn.Module):
    def __init__(self, d_model=32, num_labels=10, num_queries=20, feat_strides=(8, 16), anchor_image_size=(64, 64)):
        super().__init__()
        self.d_model, self.num_queries = d_model, num_queries
        self.feat_strides, self.anchor_image_size = feat_strides, anchor_image_size
        self.backbone = nn.ModuleList([nn.Conv2d(3, d_model, 8, 8), nn.Conv2d(d_model, d_model, 2, 2)])
        self.enc_output = nn.Sequential(nn.Linear(d_model, d_model), nn.LayerNorm(d_model))
        self.enc_score_head = nn.Linear(d_model, num_labels)
        self.enc_bbox_head = RTDetrMLPPredictionHead(d_model, d_model, 4, num_layers=3)
        if anchor_image_size:
            self.anchors, self.valid_mask = self.generate_anchors()

    def generate_anchors(self, spatial_shapes=None, grid_size=0.05, device="cpu", dtype=torch.float32):
        if spatial_shapes is None:
            spatial_shapes = [[int(self.anchor_image_size[0] / s), int(self.anchor_image_size[1] / s)]
                              for s in self.feat_strides]
        anchors = []
        for level, (height, width) in enumerate(spatial_shapes):
            grid_y, grid_x = torch.meshgrid(torch.arange(end=height, device=device).to(dtype),
                                            torch.arange(end=width, device=device).to(dtype), indexing="ij")
            grid_xy = torch.stack([grid_x, grid_y], -1)
            grid_xy = grid_xy.unsqueeze(0) + 0.5
            grid_xy[..., 0] /= width
            grid_xy[..., 1] /= height
            wh = torch.ones_like(grid_xy) * grid_size * (2.0 ** level)
            anchors.append(torch.concat([grid_xy, wh], -1).reshape(-1, height * width, 4))
        eps = 1e-2
        anchors = torch.concat(anchors, 1)
        valid_mask = ((anchors > eps) * (anchors < 1 - eps)).all(-1, keepdim=True)
        anchors = torch.log(anchors / (1 - anchors))
        anchors = torch.where(valid_mask, anchors, torch.tensor(torch.finfo(dtype).max, dtype=dtype, device=device))
        return anchors, valid_mask

    def forward(self, pixel_values):
        f1 = self.backbone[0](pixel_values)
        f2 = self.backbone[1](f1)
        source_flatten = torch.cat([f.flatten(2).transpose(1, 2) for f in (f1, f2)], 1)
        dtype, device = source_flatten.dtype, source_flatten.device
        if self.training or self.anchor_image_size is None:
            spatial_shapes = tuple((f.shape[2], f.shape[3]) for f in (f1, f2))
            anchors, valid_mask = self.generate_anchors(spatial_shapes, device=device, dtype=dtype)
        else:
            anchors, valid_mask = self.anchors, self.valid_mask
            anchors, valid_mask = anchors.to(device, dtype), valid_mask.to(device, dtype)
        memory = valid_mask.to(source_flatten.dtype) * source_flatten
        output_memory = self.enc_output(memory)
        enc_outputs_class = self.enc_score_head(output_memory)
        enc_outputs_coord_logits = self.enc_bbox_head(output_memory) + anchors
        _, topk_ind = torch.topk(enc_outputs_class.max(-1).values, self.num_queries, dim=1)
        reference_points_unact = enc_outputs_coord_logits.gather(
            dim=1, index=topk_ind.unsqueeze(-1).repeat(1, 1, enc_outputs_coord_logits.shape[-1]))
        return {"logits": enc_outputs_class.gather(1, topk_ind.unsqueeze(-1).repeat(1, 1, enc_outputs_class.shape[-1])),
                "pred_boxes": reference_points_unact.sigmoid()}

dtype = torch.bfloat16                              # torch_dtype=torch.float16 on CUDA
model = RTDetrModel().to(dtype=dtype).eval()
pixel_values = torch.rand(1, 3, 64, 64).to(dtype)
'''
CELL = '''
with torch.no_grad():
    outputs = model(pixel_values)
assert outputs["logits"].dtype == dtype
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
