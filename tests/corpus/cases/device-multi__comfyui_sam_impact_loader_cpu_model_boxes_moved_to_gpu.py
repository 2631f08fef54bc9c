"""comfyui_segment_anything fed a SAM model that another node pack keeps on the CPU ("device:AUTO"); `sam_segment` moves the boxes to the GPU.

Source: https://github.com/storyicon/comfyui_segment_anything/issues/64
"Expected all tensors to be on the same device but found at least two devices, cuda:0 and cpu!" in
GroundingDinoSAMSegment -> `sam_segment` -> `predictor.predict_torch(...)` -> prompt encoder (the
same error as issue 36: "argument mat2 in method wrapper_CUDA_mm"). The log shows "Loads SAM model:
...sam_vit_h_4b8939.pth (device:AUTO)" - the SAM came from a loader whose AUTO mode leaves the model on
the CPU and only moves it for its own nodes - while `sam_segment` sends the boxes to
`comfy.model_management.get_torch_device()` (cuda:0), so the prompt encoder's positional-encoding
buffer (CPU) meets GPU box coordinates. Stand-in: SAM reduced to image encoder, prompt encoder
(PositionEmbeddingRandom, box corners), a one-step mask decoder; the predictor's set_image /
apply_boxes_torch / predict_torch; no numpy post-processing.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def get_torch_device():                           # comfy.model_management.get_torch_device()
    return torch.device("cuda:0")

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

class SamPredictorHQ:
    def __init__(self, sam_model, sam_is_hq=False):
        self.model = sam_model
        self.transform = ResizeLongestSide(64)
        self.is_hq = sam_is_hq

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

def sam_segment(sam_model, image_np, boxes):
    predictor = SamPredictorHQ(sam_model, False)
    image_np_rgb = image_np[..., :3]
    predictor.set_image(image_np_rgb)
    transformed_boxes = predictor.transform.apply_boxes_torch(boxes, image_np.shape[:2])
    sam_device = get_torch_device()
    masks, _, _ = predictor.predict_torch(point_coords=None, point_labels=None,
                                          boxes=transformed_boxes.to(sam_device), multimask_output=False)
    return masks

def impact_sam_loader(model_name, device_mode="AUTO"):      # the other pack's SAMLoader
    sam = Sam()                                              # sam_model_registry[model_kind](checkpoint=...)
    print(f"Loads SAM model: {model_name} (device:{device_mode})")
    if device_mode == "Prefer GPU":
        sam.to(get_torch_device())
    return sam                                               # AUTO: kept on the CPU, moved only inside its own nodes

sam_model = impact_sam_loader("sam_vit_h_4b8939.pth")
image_np = np.random.randint(0, 256, (64, 64, 4), dtype=np.uint8)          # the RGBA PIL image as an array
boxes = torch.tensor([[8.0, 10.0, 40.0, 50.0], [20.0, 4.0, 60.0, 30.0]])   # groundingdino_predict(...) (on the CPU)
'''
CELL = '''
masks = sam_segment(sam_model, image_np, boxes)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sam_model"]
FIX = "namespace"
REFERENCE_FIX = '''
sam_model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
