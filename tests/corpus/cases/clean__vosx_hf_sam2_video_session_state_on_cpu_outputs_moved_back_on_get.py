"""Look-alike: transformers `Sam2VideoInferenceSession(inference_state_device="cpu")` stores large per-frame outputs on the CPU and moves them back to the inference device when they are read.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/sam2_video/modeling_sam2_video.py
`store_output` keeps "object_pointer"/"object_score_logits" on the inference device but sends large tensors
(masks, memory features) to `self.inference_state_device`; `get_output` returns
`value.to(self.inference_device, non_blocking=True)`; `add_point_inputs` places prompts on the inference
device. A CUDA model with CPU-held session state is the documented memory-saving setup: no finding expected.
Stand-in: the session's store/get/add_point_inputs logic as in transformers, a tiny model that conditions a
frame on the previous frame's stored memory.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Sam2VideoInferenceSession:
    def __init__(self, inference_device="cpu", inference_state_device="cpu", dtype=torch.float32):
        self.inference_device = inference_device
        self.inference_state_device = inference_state_device
        self.dtype = dtype
        self.point_inputs_per_obj = {0: {}}
        self.output_dict_per_obj = {0: {"cond_frame_outputs": {}, "non_cond_frame_outputs": {}}}

    def add_point_inputs(self, obj_idx, frame_idx, inputs):
        device_inputs = {}
        for key, value in inputs.items():
            if isinstance(value, torch.Tensor):
                device_inputs[key] = value.to(self.inference_device, non_blocking=True)
            else:
                device_inputs[key] = value
        self.point_inputs_per_obj[obj_idx][frame_idx] = device_inputs

    def store_output(self, obj_idx, frame_idx, output_key=None, output_value=None, is_conditioning_frame=True):
        storage_key = "cond_frame_outputs" if is_conditioning_frame else "non_cond_frame_outputs"
        if output_key is None and isinstance(output_value, dict):
            self.output_dict_per_obj[obj_idx][storage_key][frame_idx] = {}
            for key, value in output_value.items():
                self.store_output(obj_idx, frame_idx, key, value, is_conditioning_frame)
            return
        if output_key in ["object_pointer", "object_score_logits"]:  # Small tensors
            self.output_dict_per_obj[obj_idx][storage_key][frame_idx][output_key] = output_value
        elif isinstance(output_value, torch.Tensor):  # Large tensors like masks, features
            self.output_dict_per_obj[obj_idx][storage_key][frame_idx][output_key] = output_value.to(
                self.inference_state_device, non_blocking=True)
        else:
            self.output_dict_per_obj[obj_idx][storage_key][frame_idx][output_key] = output_value

    def get_output(self, obj_idx, frame_idx, output_key, is_conditioning_frame=True):
        storage_key = "cond_frame_outputs" if is_conditioning_frame else "non_cond_frame_outputs"
        out = self.output_dict_per_obj[obj_idx][storage_key].get(frame_idx, None)
        if out is None:
            return None
        value = out[output_key]
        if isinstance(value, torch.Tensor):
            value = value.to(self.inference_device, non_blocking=True)
        return value

class Sam2VideoModel(nn.Module):
    def __init__(self, hidden_dim=8, mem_dim=4):
        super().__init__()
        self.patch_embed = nn.Linear(3, hidden_dim)
        self.point_embed = nn.Linear(2, hidden_dim)
        self.memory_encoder = nn.Linear(hidden_dim, mem_dim)
        self.memory_proj = nn.Linear(mem_dim, hidden_dim)
        self.mask_decoder = nn.Linear(hidden_dim, 1)

    def forward(self, inference_session, frame_idx, frame):
        feats = self.patch_embed(frame.to(inference_session.inference_device))
        point_inputs = inference_session.point_inputs_per_obj[0].get(frame_idx)
        if point_inputs is not None:
            feats = feats + self.point_embed(point_inputs["point_coords"]).mean(dim=1, keepdim=True)
        else:
            prev = frame_idx - 1
            is_cond = prev in inference_session.output_dict_per_obj[0]["cond_frame_outputs"]
            memory = inference_session.get_output(0, prev, "maskmem_features", is_conditioning_frame=is_cond)
            feats = feats + self.memory_proj(memory)
        pred_masks = self.mask_decoder(feats)
        inference_session.store_output(0, frame_idx, output_value={
            "pred_masks": pred_masks, "maskmem_features": self.memory_encoder(feats),
            "object_pointer": feats.mean(dim=1)}, is_conditioning_frame=point_inputs is not None)
        return pred_masks

model = Sam2VideoModel().to("cuda:0")
inference_session = Sam2VideoInferenceSession(inference_device="cuda:0", inference_state_device="cpu")
video_frames = [torch.rand(1, 16, 3) for _ in range(4)]        # processed frames, kept on the CPU
inference_session.add_point_inputs(0, 0, {"point_coords": torch.tensor([[[0.3, 0.6]]]),
                                          "point_labels": torch.tensor([[1]])})
'''
CELL = '''
video_segments = {}
for frame_idx, frame in enumerate(video_frames):
    video_segments[frame_idx] = model(inference_session, frame_idx, frame) > 0.0
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
