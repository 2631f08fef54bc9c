"""Look-alike: SAM 2 with `offload_state_to_cpu=True` keeps the per-frame memory features on the CPU and moves them back to the GPU when a frame is conditioned on memory.

Source: https://github.com/facebookresearch/sam2/blob/main/sam2/sam2_video_predictor.py
(with https://github.com/facebookresearch/sam2/blob/main/sam2/modeling/sam2_base.py)
`init_state(..., offload_state_to_cpu=True)` sets `inference_state["storage_device"] = torch.device("cpu")`;
`_run_single_frame_inference` stores `maskmem_features` and `pred_masks` with
`.to(storage_device, non_blocking=True)`, and `SAM2Base._prepare_memory_conditioned_features` reads them
back with `feats = prev["maskmem_features"].to(device, non_blocking=True)` before the memory attention.
CPU-held memory next to a GPU model is deliberate (saves GPU memory on long videos): no finding expected.
Stand-in: the predictor's storage bookkeeping and the memory conditioning, the network reduced to linear
layers on precomputed frame features (bf16 storage cast left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class SAM2VideoPredictor(nn.Module):
    def __init__(self, hidden_dim=8, mem_dim=4, num_maskmem=7):
        super().__init__()
        self.num_maskmem = num_maskmem
        self.memory_encoder = nn.Linear(hidden_dim + 1, mem_dim)
        self.k_proj = nn.Linear(mem_dim, hidden_dim)
        self.v_proj = nn.Linear(mem_dim, hidden_dim)
        self.sam_mask_decoder = nn.Linear(hidden_dim, 1)
        self.no_mem_embed = nn.Parameter(torch.zeros(1, 1, hidden_dim))

    @property
    def device(self):
        return self.k_proj.weight.device

    def init_state(self, num_frames=6, offload_state_to_cpu=False):
        compute_device = self.device
        storage_device = torch.device("cpu") if offload_state_to_cpu else compute_device
        return {"device": compute_device, "storage_device": storage_device, "num_frames": num_frames,
                "vision_feats": [torch.randn(1, 16, 8, device=compute_device) for _ in range(num_frames)],
                "output_dict": {"cond_frame_outputs": {}, "non_cond_frame_outputs": {}}}

    def _prepare_memory_conditioned_features(self, frame_idx, is_init_cond_frame, current_vision_feats, output_dict):
        if is_init_cond_frame:
            return current_vision_feats + self.no_mem_embed
        device = current_vision_feats.device
        prevs = list(output_dict["cond_frame_outputs"].values())
        for t_pos in range(1, self.num_maskmem):
            out = output_dict["non_cond_frame_outputs"].get(frame_idx - t_pos, None)
            if out is not None:
                prevs.append(out)
        to_cat_memory = []
        for prev in prevs:
            feats = prev["maskmem_features"].to(device, non_blocking=True)
            to_cat_memory.append(feats)
        memory = torch.cat(to_cat_memory, dim=1)
        attn = torch.softmax(current_vision_feats @ self.k_proj(memory).transpose(-2, -1), dim=-1)
        return current_vision_feats + attn @ self.v_proj(memory)

    def _run_single_frame_inference(self, inference_state, frame_idx, is_init_cond_frame):
        feats = inference_state["vision_feats"][frame_idx]
        pix_feat = self._prepare_memory_conditioned_features(frame_idx, is_init_cond_frame, feats,
                                                             inference_state["output_dict"])
        pred_masks_gpu = self.sam_mask_decoder(pix_feat)
        maskmem_features = self.memory_encoder(torch.cat([pix_feat, torch.sigmoid(pred_masks_gpu)], dim=-1))
        storage_device = inference_state["storage_device"]
        maskmem_features = maskmem_features.to(storage_device, non_blocking=True)
        pred_masks = pred_masks_gpu.to(storage_device, non_blocking=True)
        return {"maskmem_features": maskmem_features, "pred_masks": pred_masks}, pred_masks_gpu

    @torch.inference_mode()
    def add_new_points_or_box(self, inference_state, frame_idx, obj_id, points, labels):
        current_out, pred_masks_gpu = self._run_single_frame_inference(inference_state, frame_idx, True)
        inference_state["output_dict"]["cond_frame_outputs"][frame_idx] = current_out
        return frame_idx, [obj_id], pred_masks_gpu

    @torch.inference_mode()
    def propagate_in_video(self, inference_state):
        output_dict = inference_state["output_dict"]
        for frame_idx in range(inference_state["num_frames"]):
            if frame_idx in output_dict["cond_frame_outputs"]:
                pred_masks = output_dict["cond_frame_outputs"][frame_idx]["pred_masks"].to(inference_state["device"])
            else:
                current_out, pred_masks = self._run_single_frame_inference(inference_state, frame_idx, False)
                output_dict["non_cond_frame_outputs"][frame_idx] = current_out
            yield frame_idx, [1], pred_masks

predictor = SAM2VideoPredictor().to("cuda:0")
inference_state = predictor.init_state(num_frames=6, offload_state_to_cpu=True)   # long video, small GPU
_, out_obj_ids, out_mask_logits = predictor.add_new_points_or_box(inference_state, frame_idx=0, obj_id=1,
                                                                  points=[[210, 350]], labels=[1])
'''
CELL = '''
video_segments = {}
for out_frame_idx, out_obj_ids, out_mask_logits in predictor.propagate_in_video(inference_state):
    video_segments[out_frame_idx] = (out_mask_logits > 0.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
