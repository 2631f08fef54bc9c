"""Look-alike: SAM 2 `add_new_mask` takes a numpy/CPU boolean mask and moves it to the inference device itself before resizing it to the model's input size.

Source: https://github.com/facebookresearch/sam2/blob/main/sam2/sam2_video_predictor.py
`add_new_mask(inference_state, frame_idx, obj_id, mask)`: `if not isinstance(mask, torch.Tensor): mask =
torch.tensor(mask, dtype=torch.bool)` (CPU), then `mask_inputs_orig = mask[None, None].float().to(
inference_state["device"])` and, when the size differs from `self.image_size`, a bilinear antialiased
`interpolate` on the device, thresholded at 0.5. A CPU mask handed to a GPU predictor is the intended
API: no finding expected.
Stand-in: `init_state` / `add_new_mask` / `_use_mask_as_output` with the SAM heads reduced to small layers.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class SAM2VideoPredictor(nn.Module):
    def __init__(self, image_size=32, hidden_dim=8):
        super().__init__()
        self.image_size = image_size
        self.mask_downsample = nn.Conv2d(1, 1, kernel_size=4, stride=4)
        self.obj_ptr_proj = nn.Linear(hidden_dim, hidden_dim)

    @property
    def device(self):
        return self.obj_ptr_proj.weight.device

    def init_state(self, video_height, video_width, num_frames=4):
        return {"device": self.device, "video_height": video_height, "video_width": video_width,
                "num_frames": num_frames, "mask_inputs_per_obj": {}, "obj_ids": []}

    def _use_mask_as_output(self, mask_inputs):
        out_scale, out_bias = 20.0, -10.0
        high_res_masks = mask_inputs * out_scale + out_bias
        low_res_masks = F.interpolate(high_res_masks, size=(self.image_size // 4, self.image_size // 4),
                                      mode="bilinear", align_corners=False)
        return low_res_masks, self.mask_downsample(mask_inputs)

    def add_new_mask(self, inference_state, frame_idx, obj_id, mask):
        inference_state["obj_ids"].append(obj_id)
        if not isinstance(mask, torch.Tensor):
            mask = torch.tensor(mask, dtype=torch.bool)
        assert mask.dim() == 2
        mask_H, mask_W = mask.shape
        mask_inputs_orig = mask[None, None]  # add batch and channel dimension
        mask_inputs_orig = mask_inputs_orig.float().to(inference_state["device"])
        if mask_H != self.image_size or mask_W != self.image_size:
            mask_inputs = F.interpolate(mask_inputs_orig, size=(self.image_size, self.image_size),
                                        align_corners=False, mode="bilinear", antialias=True)
            mask_inputs = (mask_inputs >= 0.5).float()
        else:
            mask_inputs = mask_inputs_orig
        inference_state["mask_inputs_per_obj"].setdefault(len(inference_state["obj_ids"]) - 1, {})[frame_idx] = mask_inputs
        low_res_masks, _ = self._use_mask_as_output(mask_inputs)
        video_res_masks = F.interpolate(low_res_masks, size=(inference_state["video_height"], inference_state["video_width"]),
                                        mode="bilinear", align_corners=False)
        return frame_idx, list(inference_state["obj_ids"]), video_res_masks

predictor = SAM2VideoPredictor().to("cuda:0")
inference_state = predictor.init_state(video_height=48, video_width=64)
first_frame_mask = np.zeros((48, 64), dtype=bool)     # e.g. a mask read from an annotation PNG
first_frame_mask[10:30, 20:40] = True
'''
CELL = '''
_, out_obj_ids, out_mask_logits = predictor.add_new_mask(
    inference_state=inference_state, frame_idx=0, obj_id=1, mask=first_frame_mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
