"""SAM 2 video predictor: a GPU box prompt without points fails because `add_new_points_or_box` makes the empty points tensor on the CPU.

Source: https://github.com/facebookresearch/sam2/issues/281
"Adding gpu box tensors and no points in add_new_points_or_box does not work": passing a box tensor
that lives on the GPU (and no points) raised "Expected all tensors to be on the same device, but found
at least two devices, cuda:0 and cpu! (when checking argument for argument tensors in method
wrapper_CUDA_cat)" at `points = torch.cat([box_coords, points], dim=1)`. The reporter traced it to
`points = torch.zeros(0, 2, dtype=torch.float32)` being created on the CPU when `points` is None,
while `box_coords` keeps the box's (GPU) device. Fix: create the empty points on the box's device.
Stand-in: `SAM2VideoPredictor.init_state` / `add_new_points_or_box` (prompt handling as in sam2 at the
time, the SAM decoder reduced to a point projection and a mask head).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class SAM2VideoPredictor(nn.Module):
    def __init__(self, hidden_dim=8, image_size=64):
        super().__init__()
        self.image_size = image_size
        self.point_proj = nn.Linear(2, hidden_dim)       # stands in for the prompt encoder
        self.mask_head = nn.Linear(hidden_dim, 16 * 16)  # stands in for the SAM mask decoder

    @property
    def device(self):
        return self.point_proj.weight.device

    def init_state(self, video_height, video_width):
        return {"device": self.device, "video_height": video_height, "video_width": video_width,
                "obj_id_to_idx": {}, "point_inputs_per_obj": {}, "tracking_has_started": False}

    def _obj_id_to_idx(self, inference_state, obj_id):
        return inference_state["obj_id_to_idx"].setdefault(obj_id, len(inference_state["obj_id_to_idx"]))

    def add_new_points_or_box(self, inference_state, frame_idx, obj_id, points=None, labels=None,
                              clear_old_points=True, normalize_coords=True, box=None):
        obj_idx = self._obj_id_to_idx(inference_state, obj_id)
        if (points is not None) != (labels is not None):
            raise ValueError("points and labels must be provided together")
        if points is None and box is None:
            raise ValueError("at least one of points or box must be provided as input")

        if points is None:
            points = torch.zeros(0, 2, dtype=torch.float32)
        elif not isinstance(points, torch.Tensor):
            points = torch.tensor(points, dtype=torch.float32)
        if labels is None:
            labels = torch.zeros(0, dtype=torch.int32)
        elif not isinstance(labels, torch.Tensor):
            labels = torch.tensor(labels, dtype=torch.int32)
        if points.dim() == 2:
            points = points.unsqueeze(0)  # add batch dimension
        if labels.dim() == 1:
            labels = labels.unsqueeze(0)  # add batch dimension

        if box is not None:
            if not isinstance(box, torch.Tensor):
                box = torch.tensor(box, dtype=torch.float32, device=points.device)
            box_coords = box.reshape(1, 2, 2)
            box_labels = torch.tensor([2, 3], dtype=torch.int32, device=labels.device)
            box_labels = box_labels.reshape(1, 2)
            points = torch.cat([box_coords, points], dim=1)
            labels = torch.cat([box_labels, labels], dim=1)

        if normalize_coords:
            video_H = inference_state["video_height"]
            video_W = inference_state["video_width"]
            points = points / torch.tensor([video_W, video_H]).to(points.device)
        points = points * self.image_size
        points = points.to(inference_state["device"])
        labels = labels.to(inference_state["device"])
        inference_state["point_inputs_per_obj"].setdefault(obj_idx, {})[frame_idx] = {
            "point_coords": points, "point_labels": labels}

        sparse = self.point_proj(points / self.image_size).mean(dim=1)
        out_mask_logits = self.mask_head(sparse).view(1, 1, 16, 16)
        return frame_idx, list(inference_state["obj_id_to_idx"]), out_mask_logits

predictor = SAM2VideoPredictor().to("cuda:0")      # build_sam2_video_predictor(model_cfg, sam2_checkpoint)
inference_state = predictor.init_state(video_height=480, video_width=640)
ann_frame_idx, ann_obj_id = 0, 1
box = torch.tensor([300.0, 0.0, 500.0, 400.0], device="cuda:0")   # detector output, already on the GPU
'''
CELL = '''
_, out_obj_ids, out_mask_logits = predictor.add_new_points_or_box(
    inference_state=inference_state,
    frame_idx=ann_frame_idx,
    obj_id=ann_obj_id,
    box=box,
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["predictor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            points = torch.zeros(0, 2, dtype=torch.float32)\n",
                  "            points = torch.zeros(0, 2, dtype=torch.float32, device=box.device if isinstance(box, torch.Tensor) else None)\n")
CLEAN = False
