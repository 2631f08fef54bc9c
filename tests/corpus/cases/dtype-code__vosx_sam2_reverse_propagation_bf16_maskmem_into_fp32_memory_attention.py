"""SAM 2 video predictor: reverse propagation without autocast feeds the bfloat16 memory features into the float32 memory attention.

Source: https://github.com/facebookresearch/sam2/issues/308
"When we set reverse propagate_in_video, a data type mismatch error occurs": propagating with
`reverse=True` from the most recent annotated frame for a fixed length failed with "RuntimeError: mat1
and mat2 must have the same dtype, but got BFloat16 and Float". The reporter traced it to
`_prepare_memory_conditioned_features` in `SAM2Base`: `feats = prev["maskmem_features"].to(device,
non_blocking=True)` returns `torch.bfloat16` (the predictor stores `maskmem_features` as bfloat16 to
save memory) and goes straight into `MemoryAttention`, whose weights are float32 when no bf16
autocast is active. Temp solution given in the report: `feats = feats.to(torch.float32)`.
Stand-in: `SAM2Base` memory conditioning / memory encoder and `SAM2VideoPredictor` bookkeeping on
precomputed frame features (the image encoder and SAM heads reduced to 1x1 convs).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

class MemoryAttention(nn.Module):
    def __init__(self, d_model=8, mem_dim=4):
        super().__init__()
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(mem_dim, d_model)
        self.v_proj = nn.Linear(mem_dim, d_model)

    def forward(self, curr, memory):
        q, k, v = self.q_proj(curr), self.k_proj(memory), self.v_proj(memory)
        attn = torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, dim=-1)
        return curr + attn @ v

class SAM2Base(nn.Module):
    def __init__(self, hidden_dim=8, mem_dim=4, num_maskmem=7):
        super().__init__()
        self.hidden_dim, self.num_maskmem = hidden_dim, num_maskmem
        self.memory_attention = MemoryAttention(hidden_dim, mem_dim)
        self.memory_encoder = nn.Conv2d(hidden_dim + 1, mem_dim, 1)
        self.sam_mask_decoder = nn.Conv2d(hidden_dim, 1, 1)
        self.no_mem_embed = nn.Parameter(torch.zeros(1, 1, hidden_dim))

    def _prepare_memory_conditioned_features(self, frame_idx, is_init_cond_frame, current_vision_feats,
                                             feat_size, output_dict, num_frames, track_in_reverse=False):
        B, HW, C = current_vision_feats.shape
        H, W = feat_size
        device = current_vision_feats.device
        if is_init_cond_frame:
            pix_feat = current_vision_feats + self.no_mem_embed
            return pix_feat.permute(0, 2, 1).reshape(B, C, H, W)
        to_cat_memory = []
        t_pos_and_prevs = [(0, out) for out in output_dict["cond_frame_outputs"].values()]
        for t_pos in range(1, self.num_maskmem):
            prev_frame_idx = frame_idx + t_pos if track_in_reverse else frame_idx - t_pos
            out = output_dict["non_cond_frame_outputs"].get(prev_frame_idx, None)
            if out is not None:
                t_pos_and_prevs.append((t_pos, out))
        for t_pos, prev in t_pos_and_prevs:
            feats = prev["maskmem_features"].to(device, non_blocking=True)
            to_cat_memory.append(feats.flatten(2).permute(0, 2, 1))
        memory = torch.cat(to_cat_memory, dim=1)
        pix_feat_with_mem = self.memory_attention(curr=current_vision_feats, memory=memory)
        return pix_feat_with_mem.permute(0, 2, 1).reshape(B, C, H, W)

    def _encode_new_memory(self, pix_feat, pred_masks):
        return self.memory_encoder(torch.cat([pix_feat, torch.sigmoid(pred_masks)], dim=1))

    def track_step(self, frame_idx, is_init_cond_frame, current_vision_feats, feat_size, output_dict,
                   num_frames, track_in_reverse=False, run_mem_encoder=True):
        pix_feat = self._prepare_memory_conditioned_features(frame_idx, is_init_cond_frame, current_vision_feats,
                                                             feat_size, output_dict, num_frames, track_in_reverse)
        pred_masks = self.sam_mask_decoder(pix_feat)
        current_out = {"pred_masks": pred_masks}
        if run_mem_encoder:
            current_out["maskmem_features"] = self._encode_new_memory(pix_feat, pred_masks)
        return current_out

class SAM2VideoPredictor(SAM2Base):
    def init_state(self, num_frames=8, feat_size=(4, 4)):
        H, W = feat_size
        return {"num_frames": num_frames, "feat_size": feat_size, "storage_device": torch.device("cpu"),
                "vision_feats": [torch.randn(1, H * W, self.hidden_dim) for _ in range(num_frames)],
                "output_dict": {"cond_frame_outputs": {}, "non_cond_frame_outputs": {}}}

    def _run_single_frame_inference(self, inference_state, frame_idx, is_init_cond_frame, reverse):
        current_out = self.track_step(frame_idx, is_init_cond_frame, inference_state["vision_feats"][frame_idx],
                                      inference_state["feat_size"], inference_state["output_dict"],
                                      inference_state["num_frames"], track_in_reverse=reverse)
        storage_device = inference_state["storage_device"]
        maskmem_features = current_out["maskmem_features"]
        maskmem_features = maskmem_features.to(torch.bfloat16)
        maskmem_features = maskmem_features.to(storage_device, non_blocking=True)
        return {"maskmem_features": maskmem_features, "pred_masks": current_out["pred_masks"]}

    @torch.inference_mode()
    def add_new_points(self, inference_state, frame_idx, obj_id, points, labels):
        current_out = self._run_single_frame_inference(inference_state, frame_idx, True, False)
        inference_state["output_dict"]["cond_frame_outputs"][frame_idx] = current_out
        return frame_idx, [obj_id], current_out["pred_masks"]

    @torch.inference_mode()
    def propagate_in_video(self, inference_state, start_frame_idx=None, max_frame_num_to_track=None, reverse=False):
        output_dict = inference_state["output_dict"]
        num_frames = inference_state["num_frames"]
        if reverse:
            end_frame_idx = max(start_frame_idx - max_frame_num_to_track, 0)
            processing_order = range(start_frame_idx, end_frame_idx - 1, -1)
        else:
            end_frame_idx = min(start_frame_idx + max_frame_num_to_track, num_frames - 1)
            processing_order = range(start_frame_idx, end_frame_idx + 1)
        for frame_idx in processing_order:
            if frame_idx in output_dict["cond_frame_outputs"]:
                current_out = output_dict["cond_frame_outputs"][frame_idx]
            else:
                current_out = self._run_single_frame_inference(inference_state, frame_idx, False, reverse)
                output_dict["non_cond_frame_outputs"][frame_idx] = current_out
            yield frame_idx, [1], current_out["pred_masks"]

predictor = SAM2VideoPredictor()                      # build_sam2_video_predictor(...), no torch.autocast
inference_state = predictor.init_state(num_frames=8)
last_frame_idx = 6                                      # the most recent annotated frame
_, out_obj_ids, out_mask_logits = predictor.add_new_points(inference_state, frame_idx=last_frame_idx, obj_id=1,
                                                           points=[[210, 350]], labels=[1])
'''
CELL = '''
video_segments = {}
for out_frame_idx, out_obj_ids, out_mask_logits in predictor.propagate_in_video(
        inference_state, start_frame_idx=last_frame_idx, max_frame_num_to_track=4, reverse=True):
    video_segments[out_frame_idx] = (out_mask_logits > 0.0)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["predictor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('            feats = prev["maskmem_features"].to(device, non_blocking=True)\n',
                  '            feats = prev["maskmem_features"].to(device, non_blocking=True)\n'
                  '            feats = feats.to(torch.float32)\n')
CLEAN = False
