"""Look-alike: SAM 2's public `SAM2ImagePredictor.predict` takes numpy clicks and builds the prompt tensors on the model's device in `_prep_prompts`.

Source: https://github.com/facebookresearch/sam2/blob/main/sam2/sam2_image_predictor.py
`predict(point_coords, point_labels, box, mask_input, ...)` calls `_prep_prompts`, which does
`torch.as_tensor(point_coords, dtype=torch.float, device=self.device)`, normalises them with
`self._transforms.transform_coords(...)` and makes `labels = torch.as_tensor(point_labels, dtype=torch.int,
device=self.device)` before `_predict`. Numpy clicks next to a GPU model are the documented interactive
usage (image_predictor_example.ipynb): no finding expected.
Stand-in: `SAM2ImagePredictor.set_image` / `_prep_prompts` / `_predict` with the SAM 2 heads reduced to
small layers; the final numpy conversion of the outputs is left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
            coords = coords / torch.tensor([w, h], dtype=coords.dtype, device=coords.device)
        return coords * self.resolution

class SAM2Base(nn.Module):
    def __init__(self, embed_dim=8, image_size=64):
        super().__init__()
        self.image_size = image_size
        self.image_encoder = nn.Linear(3, embed_dim)
        self.register_buffer("positional_encoding_gaussian_matrix", torch.ones(2, embed_dim // 2))
        self.point_embeddings = nn.Embedding(4, embed_dim)
        self.sam_mask_decoder = nn.Linear(embed_dim, 3)

    @property
    def device(self):
        return self.image_encoder.weight.device

class SAM2ImagePredictor:
    def __init__(self, sam_model):
        self.model = sam_model
        self._transforms = SAM2Transforms(resolution=sam_model.image_size)
        self._is_image_set = False

    @property
    def device(self):
        return self.model.device

    def set_image(self, image):
        self._orig_hw = [image.shape[:2]]
        input_image = torch.as_tensor(image, dtype=torch.float32).reshape(1, -1, 3).to(self.device)
        self._features = {"image_embed": self.model.image_encoder(input_image).mean(dim=1, keepdim=True)}
        self._is_image_set = True

    def _prep_prompts(self, point_coords, point_labels, box, mask_logits, normalize_coords, img_idx=-1):
        unnorm_coords, labels, unnorm_box, mask_input = None, None, None, None
        if point_coords is not None:
            point_coords = torch.as_tensor(point_coords, dtype=torch.float, device=self.device)
            unnorm_coords = self._transforms.transform_coords(
                point_coords, normalize=normalize_coords, orig_hw=self._orig_hw[img_idx])
            labels = torch.as_tensor(point_labels, dtype=torch.int, device=self.device)
            if len(unnorm_coords.shape) == 2:
                unnorm_coords, labels = unnorm_coords[None, ...], labels[None, ...]
        return mask_input, unnorm_coords, labels, unnorm_box

    def _predict(self, point_coords, point_labels, boxes=None, mask_input=None, multimask_output=True):
        coords = 2 * ((point_coords + 0.5) / self.model.image_size) - 1
        coords = coords @ self.model.positional_encoding_gaussian_matrix
        sparse = torch.cat([torch.sin(coords), torch.cos(coords)], dim=-1) + self.model.point_embeddings(point_labels.long())
        tokens = sparse.mean(dim=1, keepdim=True) + self._features["image_embed"]
        low_res_masks = self.model.sam_mask_decoder(tokens)
        return low_res_masks > 0, low_res_masks.sigmoid(), low_res_masks

    def predict(self, point_coords=None, point_labels=None, box=None, mask_input=None,
                multimask_output=True, return_logits=False, normalize_coords=True):
        if not self._is_image_set:
            raise RuntimeError("An image must be set with .set_image(...) before mask prediction.")
        mask_input, unnorm_coords, labels, unnorm_box = self._prep_prompts(
            point_coords, point_labels, box, mask_input, normalize_coords)
        return self._predict(unnorm_coords, labels, unnorm_box, mask_input, multimask_output)

sam2_model = SAM2Base().to("cuda:0")                # build_sam2(model_cfg, sam2_checkpoint, device="cuda")
predictor = SAM2ImagePredictor(sam2_model)
image = np.random.rand(48, 64, 3).astype(np.float32)
predictor.set_image(image)
input_point = np.array([[50, 37], [20, 10]])
input_label = np.array([1, 0])
'''
CELL = '''
masks, scores, logits = predictor.predict(
    point_coords=input_point,
    point_labels=input_label,
    multimask_output=True,
)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
