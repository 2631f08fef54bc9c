"""Look-alike: Grounded-SAM keeps GroundingDINO's boxes on the CPU, scales them there, and moves them to SAM's device only when prompting.

Source: https://github.com/IDEA-Research/Grounded-Segment-Anything/issues/390
"some questions about GroundingDINO with SAM" - the maintainer: "we use the output boxes beyond the
confidence score as prompts for SAM". In `grounded_sam_demo.py`, `get_grounding_output` returns
`outputs["pred_boxes"].cpu()` boxes, the demo scales them with `torch.Tensor([W, H, W, H])` on the CPU and
calls `predictor.predict_torch(boxes=predictor.transform.apply_boxes_torch(boxes_filt, ...).to(device))`
with both models on the GPU. CPU boxes next to GPU models, moved at the call, are correct: no finding
expected. Stand-in: small GroundingDINO and SAM (prompt encoder, mask decoder, predictor); top-k in
place of the threshold mask, the corner conversion vectorized.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class PositionEmbeddingRandom(nn.Module):
    def __init__(self, num_pos_feats=8, scale=1.0):
        super().__init__()
        self.register_buffer("positional_encoding_gaussian_matrix", scale * torch.randn((2, num_pos_feats)))

    def _pe_encoding(self, coords):
        coords = 2 * coords - 1
        coords = coords @ self.positional_encoding_gaussian_matrix
        coords = 2 * math.pi * coords
        return torch.cat([torch.sin(coords), torch.cos(coords)], dim=-1)

    def forward(self, size):
        h, w = size
        grid = torch.ones((h, w), device=self.positional_encoding_gaussian_matrix.device)
        y_embed = (grid.cumsum(dim=0) - 0.5) / h
        x_embed = (grid.cumsum(dim=1) - 0.5) / w
        pe = self._pe_encoding(torch.stack([x_embed, y_embed], dim=-1))
        return pe.permute(2, 0, 1)

    def forward_with_coords(self, coords_input, image_size):
        scale = torch.tensor([image_size[1], image_size[0]], dtype=torch.float, device=coords_input.device)
        return self._pe_encoding((coords_input / scale).to(torch.float))

class PromptEncoder(nn.Module):
    def __init__(self, embed_dim=16, image_embedding_size=(8, 8), input_image_size=(64, 64)):
        super().__init__()
        self.embed_dim = embed_dim
        self.image_embedding_size, self.input_image_size = image_embedding_size, input_image_size
        self.pe_layer = PositionEmbeddingRandom(embed_dim // 2)
        self.point_embeddings = nn.ModuleList([nn.Embedding(1, embed_dim) for _ in range(4)])
        self.no_mask_embed = nn.Embedding(1, embed_dim)

    def get_dense_pe(self):
        return self.pe_layer(self.image_embedding_size).unsqueeze(0)

    def _embed_boxes(self, boxes):
        boxes = boxes + 0.5
        coords = boxes.reshape(-1, 2, 2)
        corner_embedding = self.pe_layer.forward_with_coords(coords, self.input_image_size)
        c0, c1 = corner_embedding.unbind(1)
        return torch.stack([c0 + self.point_embeddings[2].weight, c1 + self.point_embeddings[3].weight], dim=1)

    def forward(self, points, boxes, masks):
        bs = boxes.shape[0]
        box_embeddings = self._embed_boxes(boxes)
        sparse_embeddings = torch.cat([torch.empty((bs, 0, self.embed_dim), device=box_embeddings.device), box_embeddings], dim=1)
        dense_embeddings = self.no_mask_embed.weight.reshape(1, -1, 1, 1).expand(bs, -1, *self.image_embedding_size)
        return sparse_embeddings, dense_embeddings

class MaskDecoder(nn.Module):
    def __init__(self, transformer_dim=16):
        super().__init__()
        self.mask_tokens = nn.Embedding(1, transformer_dim)
        self.mlp = nn.Linear(transformer_dim, transformer_dim)

    def forward(self, image_embeddings, image_pe, sparse_prompt_embeddings, dense_prompt_embeddings, multimask_output):
        bs = sparse_prompt_embeddings.shape[0]
        tokens = torch.cat([self.mask_tokens.weight.unsqueeze(0).expand(bs, -1, -1), sparse_prompt_embeddings], dim=1)
        src = image_embeddings + dense_prompt_embeddings + image_pe
        b, c, h, w = src.shape
        hyper = self.mlp(tokens.mean(dim=1, keepdim=True))
        masks = (hyper @ src.flatten(2)).view(b, 1, h, w)
        return masks, hyper.mean(dim=-1)

class Sam(nn.Module):
    mask_threshold = 0.0

    def __init__(self):
        super().__init__()
        self.image_encoder = nn.Sequential(nn.Conv2d(3, 16, 8, 8), nn.GELU())
        self.prompt_encoder = PromptEncoder()
        self.mask_decoder = MaskDecoder()
        self.register_buffer("pixel_mean", torch.tensor([123.675, 116.28, 103.53]).view(-1, 1, 1), False)
        self.register_buffer("pixel_std", torch.tensor([58.395, 57.12, 57.375]).view(-1, 1, 1), False)

    @property
    def device(self):
        return self.pixel_mean.device

    def preprocess(self, x):
        return (x - self.pixel_mean) / self.pixel_std

    def postprocess_masks(self, masks, input_size, original_size):
        return F.interpolate(masks, original_size, mode="bilinear", align_corners=False)

class ResizeLongestSide:
    def __init__(self, target_length=64):
        self.target_length = target_length

    def apply_boxes_torch(self, boxes, original_size):
        old_h, old_w = original_size
        scale = self.target_length / max(old_h, old_w)
        return boxes * scale

class SamPredictor:
    def __init__(self, sam_model):
        self.model = sam_model
        self.transform = ResizeLongestSide(64)

    @property
    def device(self):
        return self.model.device

    @torch.no_grad()
    def set_image(self, image, image_format="RGB"):
        input_image_torch = torch.as_tensor(image, device=self.device)
        input_image_torch = input_image_torch.permute(2, 0, 1).unsqueeze(0)
        self.original_size = image.shape[:2]
        self.input_size = tuple(input_image_torch.shape[-2:])
        self.features = self.model.image_encoder(self.model.preprocess(input_image_torch.float()))

    @torch.no_grad()
    def predict_torch(self, point_coords, point_labels, boxes=None, mask_input=None, multimask_output=True):
        points = (point_coords, point_labels) if point_coords is not None else None
        sparse_embeddings, dense_embeddings = self.model.prompt_encoder(points=points, boxes=boxes, masks=mask_input)
        low_res_masks, iou_predictions = self.model.mask_decoder(
            image_embeddings=self.features, image_pe=self.model.prompt_encoder.get_dense_pe(),
            sparse_prompt_embeddings=sparse_embeddings, dense_prompt_embeddings=dense_embeddings,
            multimask_output=multimask_output)
        masks = self.model.postprocess_masks(low_res_masks, self.input_size, self.original_size)
        return masks > self.model.mask_threshold, iou_predictions, low_res_masks

class GroundingDINO(nn.Module):
    def __init__(self, num_queries=20, d=32):
        super().__init__()
        self.backbone = nn.Linear(3 * 8 * 8, d)
        self.text_embed = nn.Embedding(100, d)
        self.query_embed = nn.Linear(d, num_queries * d)
        self.bbox_embed = nn.Linear(d, 4)
        self.num_queries, self.d = num_queries, d

    def forward(self, samples, captions=None):
        feat = self.backbone(F.adaptive_avg_pool2d(samples, 8).flatten(1))
        text = self.text_embed(torch.arange(16, device=samples.device).unsqueeze(0))
        hs = self.query_embed(feat).view(-1, self.num_queries, self.d)
        return {"pred_logits": hs @ text.transpose(1, 2), "pred_boxes": self.bbox_embed(hs).sigmoid()}

def get_grounding_output(model, image, caption, box_threshold, text_threshold, with_logits=True, device="cpu"):
    caption = caption.lower().strip()
    if not caption.endswith("."):
        caption = caption + "."
    model = model.to(device)
    image = image.to(device)
    with torch.no_grad():
        outputs = model(image.unsqueeze(0), captions=[caption])
    logits = outputs["pred_logits"].cpu().sigmoid()[0]
    boxes = outputs["pred_boxes"].cpu()[0]
    scores, keep = logits.max(dim=1)[0].topk(3)          # stands in for `> box_threshold`
    return boxes[keep], ["object"] * 3

device = "cuda:0"
model = GroundingDINO()                                  # load_model(config_file, grounded_checkpoint, device=device)
image_pil = {"size": (64, 64)}
image = torch.rand(3, 64, 64)                            # load_image(image_path): the normalized tensor
image_np = np.random.randint(0, 256, (64, 64, 3), dtype=np.uint8)   # cv2.cvtColor(cv2.imread(image_path), ...)
boxes_filt, pred_phrases = get_grounding_output(model, image, "wheel", 0.3, 0.25, device=device)
predictor = SamPredictor(Sam().to(device))            # SamPredictor(sam_model_registry[sam_version](checkpoint=...).to(device))
predictor.set_image(image_np)
'''
CELL = '''
size = image_pil["size"]
H, W = size[1], size[0]
boxes_xyxy = torch.cat([boxes_filt[:, :2] - boxes_filt[:, 2:] / 2, boxes_filt[:, :2] + boxes_filt[:, 2:] / 2], dim=1)
boxes_filt = (boxes_xyxy * torch.Tensor([W, H, W, H])).cpu()
transformed_boxes = predictor.transform.apply_boxes_torch(boxes_filt, image_np.shape[:2]).to(device)
masks, _, _ = predictor.predict_torch(point_coords=None, point_labels=None,
                                      boxes=transformed_boxes.to(device), multimask_output=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
