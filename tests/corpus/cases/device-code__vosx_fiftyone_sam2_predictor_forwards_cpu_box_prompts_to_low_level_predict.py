"""FiftyOne's SAM 2 image wrapper forwards CPU-built box prompts straight to `SAM2ImagePredictor._predict`, which expects them on the model's device.

Source: https://github.com/voxel51/fiftyone/pull/8064
"sam2: move image prompts to the model device before predict": `_SAM2Predictor.predict` forwarded the
point/box prompt tensors built on the CPU (`box_transform` / `point_transform` make them with
`torch.tensor(...)`) to SAM 2's low-level `_predict`, which, unlike the public `predict`, assumes they
are already on the model's device. On GPU this crashed with a cpu/cuda tensor mismatch in the prompt
encoder; on CPU it worked by accident. The merged fix moves the prompts to `self.processor.device`
first (None passes through).
Stand-ins: fiftyone's `_SAM2Predictor` (box_transform, predict) and sam2's `SAM2ImagePredictor` /
`SAM2Transforms` / prompt encoder (random-Fourier point encoding against a registered buffer), the
image encoder and mask decoder reduced to linear layers.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class SAM2Transforms:
    def __init__(self, resolution):
        self.resolution = resolution

    def transform_coords(self, coords, normalize=False, orig_hw=None):
        if normalize:
            h, w = orig_hw
            coords = coords / torch.tensor([w, h], dtype=coords.dtype)
        return coords * self.resolution

    def transform_boxes(self, boxes, normalize=False, orig_hw=None):
        return self.transform_coords(boxes.reshape(-1, 2, 2), normalize, orig_hw)

class PromptEncoder(nn.Module):
    def __init__(self, embed_dim=8, input_image_size=64):
        super().__init__()
        self.input_image_size = input_image_size
        self.register_buffer("positional_encoding_gaussian_matrix", torch.ones(2, embed_dim // 2))
        self.point_embeddings = nn.Embedding(4, embed_dim)

    def forward(self, points):
        coords, labels = points
        coords = (coords + 0.5) / self.input_image_size
        coords = 2 * coords - 1
        coords = coords @ self.positional_encoding_gaussian_matrix
        pe = torch.cat([torch.sin(coords), torch.cos(coords)], dim=-1)
        return pe + self.point_embeddings(labels.long())

class SAM2Base(nn.Module):
    def __init__(self, embed_dim=8, image_size=64):
        super().__init__()
        self.image_size = image_size
        self.image_encoder = nn.Linear(3, embed_dim)
        self.sam_prompt_encoder = PromptEncoder(embed_dim, image_size)
        self.sam_mask_decoder = nn.Linear(embed_dim, 2)

    @property
    def device(self):
        return self.image_encoder.weight.device

class SAM2ImagePredictor:
    def __init__(self, sam_model):
        self.model = sam_model
        self._transforms = SAM2Transforms(resolution=sam_model.image_size)
        self._features = None

    @property
    def device(self):
        return self.model.device

    def set_image(self, image):
        input_image = torch.as_tensor(image, dtype=torch.float32).reshape(1, -1, 3).to(self.device)
        self._features = {"image_embed": self.model.image_encoder(input_image).mean(dim=1, keepdim=True)}

    def _predict(self, point_coords, point_labels, boxes=None, mask_input=None, multimask_output=True, img_idx=-1):
        concat_points = (point_coords, point_labels) if point_coords is not None else None
        if boxes is not None:
            box_coords = boxes.reshape(-1, 2, 2)
            box_labels = torch.tensor([[2, 3]], dtype=torch.int, device=boxes.device)
            box_labels = box_labels.repeat(boxes.size(0), 1)
            concat_points = (box_coords, box_labels)
        sparse_embeddings = self.model.sam_prompt_encoder(points=concat_points)
        tokens = sparse_embeddings.mean(dim=1, keepdim=True) + self._features["image_embed"]
        out = self.model.sam_mask_decoder(tokens)
        return out, out.sigmoid(), None

class _SAM2Predictor:                                   # fiftyone.utils.sam2._SAM2Predictor
    def __init__(self, model):
        self.processor = SAM2ImagePredictor(model)
        self.sam_transforms = self.processor._transforms

    def box_transform(self, boxes_xyxy, img_hw):
        return self.sam_transforms.transform_boxes(
            torch.tensor(boxes_xyxy, dtype=torch.float),
            normalize=True,
            orig_hw=img_hw,
        )

    def predict(self, point_coords=None, point_labels=None, boxes=None, multimask_output=False):
        return self.processor._predict(
            point_coords=point_coords,
            point_labels=point_labels,
            boxes=boxes,
            mask_input=None,
            multimask_output=multimask_output,
        )

sam2_model = SAM2Base().to("cuda:0")        # load_zoo_model("segment-anything-2-hiera-tiny-image-torch")
sam_predictor = _SAM2Predictor(sam2_model)
image = np.random.rand(48, 64, 3).astype(np.float32)
img_hw = image.shape[:2]
sam_predictor.processor.set_image(image)
boxes_xyxy = np.array([[4.0, 6.0, 40.0, 30.0], [10.0, 12.0, 50.0, 44.0]])   # ground_truth boxes in pixels
'''
CELL = '''
sam_boxes = sam_predictor.box_transform(boxes_xyxy=boxes_xyxy, img_hw=img_hw)
masks, iou_predictions, _ = sam_predictor.predict(boxes=sam_boxes, multimask_output=False)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sam_predictor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return self.processor._predict(\n",
                  "        device = self.processor.device\n"
                  "        point_coords = point_coords.to(device) if point_coords is not None else None\n"
                  "        point_labels = point_labels.to(device) if point_labels is not None else None\n"
                  "        boxes = boxes.to(device) if boxes is not None else None\n"
                  "        return self.processor._predict(\n")
CLEAN = False
