"""Look-alike: SAM 2 stores memory features as bfloat16 and reads them back into float32 memory attention, which is fine because the documented usage runs the predictor under bfloat16 autocast.

Source: https://github.com/facebookresearch/sam2/blob/main/sam2/sam2_video_predictor.py
(with notebooks/video_predictor_example.ipynb and sam2/modeling/sam2_base.py)
`_run_single_frame_inference` does `maskmem_features = maskmem_features.to(torch.bfloat16)` before storing
it, and `_prepare_memory_conditioned_features` feeds `prev["maskmem_features"].to(device)` to the float32
`MemoryAttention`; the example notebook wraps everything in `torch.autocast(device_type, dtype=torch.bfloat16)`
so the linear layers run in bf16. bf16 memory next to fp32 weights, inside autocast: no finding expected.
Stand-in: the memory storage / conditioning path on precomputed features; CPU autocast stands in for CUDA
autocast.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class SAM2VideoPredictor(nn.Module):
    def __init__(self, hidden_dim=8, mem_dim=4):
        super().__init__()
        self.memory_encoder = nn.Linear(hidden_dim + 1, mem_dim)
        self.k_proj = nn.Linear(mem_dim, hidden_dim)
        self.v_proj = nn.Linear(mem_dim, hidden_dim)
        self.sam_mask_decoder = nn.Linear(hidden_dim, 1)

    def init_state(self, num_frames=5):
        return {"num_frames": num_frames, "storage_device": torch.device("cpu"),
                "vision_feats": [torch.randn(1, 16, 8) for _ in range(num_frames)],
                "output_dict": {"cond_frame_outputs": {}, "non_cond_frame_outputs": {}}}

    def _prepare_memory_conditioned_features(self, frame_idx, is_init_cond_frame, current_vision_feats, output_dict):
        if is_init_cond_frame:
            return current_vision_feats
        device = current_vision_feats.device
        prevs = list(output_dict["cond_frame_outputs"].values())
        prevs += [out for t, out in output_dict["non_cond_frame_outputs"].items() if t < frame_idx]
        memory = torch.cat([prev["maskmem_features"].to(device, non_blocking=True) for prev in prevs], dim=1)
        attn = torch.softmax(current_vision_feats @ self.k_proj(memory).transpose(-2, -1), dim=-1)
        return current_vision_feats + attn @ self.v_proj(memory)

    def _run_single_frame_inference(self, inference_state, frame_idx, is_init_cond_frame):
        feats = inference_state["vision_feats"][frame_idx]
        pix_feat = self._prepare_memory_conditioned_features(frame_idx, is_init_cond_frame, feats,
                                                             inference_state["output_dict"])
        pred_masks = self.sam_mask_decoder(pix_feat)
        maskmem_features = self.memory_encoder(torch.cat([pix_feat, torch.sigmoid(pred_masks)], dim=-1))
        maskmem_features = maskmem_features.to(torch.bfloat16)
        maskmem_features = maskmem_features.to(inference_state["storage_device"], non_blocking=True)
        return {"maskmem_features": maskmem_features, "pred_masks": pred_masks}

    @torch.inference_mode()
    def add_new_points_or_box(self, inference_state, frame_idx, obj_id, points, labels):
        out = self._run_single_frame_inference(inference_state, frame_idx, True)
        inference_state["output_dict"]["cond_frame_outputs"][frame_idx] = out
        return frame_idx, [obj_id], out["pred_masks"]

    @torch.inference_mode()
    def propagate_in_video(self, inference_state):
        output_dict = inference_state["output_dict"]
        for frame_idx in range(inference_state["num_frames"]):
            if frame_idx in output_dict["cond_frame_outputs"]:
                out = output_dict["cond_frame_outputs"][frame_idx]
            else:
                out = self._run_single_frame_inference(inference_state, frame_idx, False)
                output_dict["non_cond_frame_outputs"][frame_idx] = out
            yield frame_idx, [1], out["pred_masks"]

predictor = SAM2VideoPredictor()
inference_state = predictor.init_state(num_frames=5)
with torch.autocast("cpu", dtype=torch.bfloat16):   # notebook: torch.autocast("cuda", dtype=torch.bfloat16)
    _, out_obj_ids, out_mask_logits = predictor.add_new_points_or_box(inference_state, frame_idx=0, obj_id=1,
                                                                      points=[[210, 350]], labels=[1])
'''
CELL = '''
video_segments = {}
with torch.autocast("cpu", dtype=torch.bfloat16):
    for out_frame_idx, out_obj_ids, out_mask_logits in predictor.propagate_in_video(inference_state):
        video_segments[out_frame_idx] = (out_mask_logits > 0.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
