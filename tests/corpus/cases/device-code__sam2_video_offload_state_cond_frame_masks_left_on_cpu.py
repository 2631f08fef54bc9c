"""SAM 2 video predictor with `offload_state_to_cpu=True`: a prompted object's conditioning-frame masks come back from CPU storage and are concatenated with GPU masks.

Source: https://github.com/facebookresearch/sam2/issues/489
"Tensors not on same device after 12/11/2024 update": with `offload_state_to_cpu=True` (memory
limits), `propagate_in_video` failed at `sam2_video_predictor.py` line 623 with tensors on two devices.
The user fixed it by changing line 618 to `pred_masks_per_obj[obj_idx] = pred_masks.to(self.device)`;
the maintainer patched it. With offloading, the per-object conditioning outputs are stored on the CPU
and that frame's `pred_masks` were taken from storage as they were, while objects tracked on the same
frame give GPU masks, and `torch.cat(pred_masks_per_obj)` mixes them. Stand-in: the predictor's
`init_state` / `add_new_points_or_box` / `propagate_in_video` bookkeeping for two objects, the
network by a mask head on precomputed frame features.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class SAM2VideoPredictor(nn.Module):
    def __init__(self, feat_dim=8, low_res=16):
        super().__init__()
        self.mask_head = nn.Conv2d(feat_dim, 1, 1)
        self.prompt_proj = nn.Linear(2, feat_dim)
        self.low_res = low_res

    @property
    def device(self):
        return self.mask_head.weight.device

    def init_state(self, num_frames=4, video_height=64, video_width=64, offload_state_to_cpu=False):
        compute_device = self.device
        storage_device = torch.device("cpu") if offload_state_to_cpu else compute_device
        return {
            "device": compute_device, "storage_device": storage_device,
            "video_height": video_height, "video_width": video_width,
            "features": torch.randn(num_frames, 8, self.low_res, self.low_res).to(compute_device).split(1),
            "obj_ids": [], "point_inputs_per_obj": {},
            "output_dict_per_obj": {}, "frames_tracked_per_obj": {},
        }

    def _run_single_frame_inference(self, inference_state, frame_idx, point_inputs=None):
        feats = inference_state["features"][frame_idx]
        if point_inputs is not None:
            feats = feats + self.prompt_proj(point_inputs).view(1, -1, 1, 1)
        pred_masks_gpu = self.mask_head(feats)
        pred_masks = pred_masks_gpu.to(inference_state["storage_device"], non_blocking=True)
        return {"pred_masks": pred_masks}, pred_masks_gpu

    def add_new_points_or_box(self, inference_state, frame_idx, obj_id, points):
        obj_idx = len(inference_state["obj_ids"])
        inference_state["obj_ids"].append(obj_id)
        inference_state["point_inputs_per_obj"][obj_idx] = {frame_idx: points.to(inference_state["device"])}
        current_out, _ = self._run_single_frame_inference(inference_state, frame_idx, points.to(inference_state["device"]))
        inference_state["output_dict_per_obj"][obj_idx] = {"cond_frame_outputs": {frame_idx: current_out},
                                                          "non_cond_frame_outputs": {}}
        inference_state["frames_tracked_per_obj"][obj_idx] = {}
        return frame_idx, list(inference_state["obj_ids"])

    def _get_orig_video_res_output(self, inference_state, any_res_masks):
        device = inference_state["device"]
        any_res_masks = any_res_masks.to(device, non_blocking=True)
        video_res_masks = F.interpolate(any_res_masks, size=(inference_state["video_height"], inference_state["video_width"]),
                                        mode="bilinear", align_corners=False)
        return any_res_masks, video_res_masks

    @torch.inference_mode()
    def propagate_in_video(self, inference_state, start_frame_idx=0, max_frame_num_to_track=None):
        obj_ids = inference_state["obj_ids"]
        batch_size = len(obj_ids)
        num_frames = len(inference_state["features"])
        for frame_idx in range(start_frame_idx, num_frames):
            pred_masks_per_obj = [None] * batch_size
            for obj_idx in range(batch_size):
                obj_output_dict = inference_state["output_dict_per_obj"][obj_idx]
                if frame_idx in obj_output_dict["cond_frame_outputs"]:
                    storage_key = "cond_frame_outputs"
                    current_out = obj_output_dict[storage_key][frame_idx]
                    pred_masks = current_out["pred_masks"]
                else:
                    storage_key = "non_cond_frame_outputs"
                    current_out, pred_masks = self._run_single_frame_inference(inference_state, frame_idx)
                    obj_output_dict[storage_key][frame_idx] = current_out
                inference_state["frames_tracked_per_obj"][obj_idx][frame_idx] = {"reverse": False}
                pred_masks_per_obj[obj_idx] = pred_masks
            if len(pred_masks_per_obj) > 1:
                all_pred_masks = torch.cat(pred_masks_per_obj, dim=0)
            else:
                all_pred_masks = pred_masks_per_obj[0]
            _, video_res_masks = self._get_orig_video_res_output(inference_state, all_pred_masks)
            yield frame_idx, obj_ids, video_res_masks

predictor = SAM2VideoPredictor().to("cuda:0")     # build_sam2_video_predictor(model_cfg, sam2_checkpoint)
inference_state = predictor.init_state(num_frames=4, offload_state_to_cpu=True)
_, out_obj_ids = predictor.add_new_points_or_box(inference_state, frame_idx=0, obj_id=1, points=torch.tensor([[0.3, 0.4]]))
_, out_obj_ids = predictor.add_new_points_or_box(inference_state, frame_idx=2, obj_id=2, points=torch.tensor([[0.7, 0.2]]))
'''
CELL = '''
video_segments = {}
for out_frame_idx, out_obj_ids, out_mask_logits in predictor.propagate_in_video(inference_state):
    video_segments[out_frame_idx] = out_mask_logits
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["predictor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                pred_masks_per_obj[obj_idx] = pred_masks\n",
                  "                pred_masks_per_obj[obj_idx] = pred_masks.to(self.device)\n")
CLEAN = False
