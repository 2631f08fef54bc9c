"""transformers Sam2VideoModel in float16: memory features hard-cast to bfloat16 meet float16 object pointers and reach the fp16 memory attention as float32.

Source: https://github.com/huggingface/transformers/pull/43268
"SAM2 Video support fp16": the streaming-video example of the Sam2Video docs worked with
`dtype = torch.bfloat16` and `torch.float32` but not with `dtype = torch.float16` (model loaded with
`.to(device, dtype=torch.float16)`, session from `processor.init_video_session(inference_device=device,
dtype=dtype)`); the PR fixed float16 inference. The follow-up https://github.com/huggingface/transformers/pull/43414
("Fix float16 inference for Sam2 Video ...") names the cause and the merged fix: `_encode_new_memory`
saves `maskmem_features` as bfloat16, so in `_prepare_memory_conditioned_features` the concatenated
memory (bf16 memories + fp16 object pointers, promoted to float32 by `torch.cat`) no longer matches the
fp16 memory attention; the fix keeps memory stored as bf16 and converts the concatenated memory to the
`inference_session` dtype. The PR does not quote the traceback; the error below is what this
structure raises ("mat1 and mat2 must have the same dtype, but got Float and Half").
Stand-ins: Sam2VideoInferenceSession / Sam2VideoProcessor / Sam2VideoModel reduced to linear layers on
precomputed patch features; run on the CPU (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import types
import torch
import torch.nn as nn

class Sam2VideoInferenceSession:
    def __init__(self, inference_device="cpu", dtype=torch.float32):
        self.inference_device = inference_device
        self.dtype = dtype
        self.point_inputs_per_obj = {0: {}}
        self.output_dict_per_obj = {0: {"cond_frame_outputs": {}, "non_cond_frame_outputs": {}}}
        self.processed_frames = []

class Sam2VideoProcessor:
    def init_video_session(self, inference_device="cpu", dtype=torch.float32):
        return Sam2VideoInferenceSession(inference_device=inference_device, dtype=dtype)

    def __call__(self, images, device="cpu", return_tensors="pt"):
        pixel_values = torch.as_tensor(images, dtype=torch.float32).flatten(0, 1)[None]   # (1, HW, 3)
        return types.SimpleNamespace(pixel_values=pixel_values.to(device), original_sizes=[images.shape[:2]])

    def add_inputs_to_inference_session(self, inference_session, frame_idx, obj_ids, input_points, input_labels,
                                        original_size=None):
        points = torch.tensor(input_points, dtype=torch.float32).to(inference_session.inference_device)
        inference_session.point_inputs_per_obj[0][frame_idx] = points.view(-1, 2)

class Sam2VideoMemoryAttention(nn.Module):
    def __init__(self, hidden_dim=8, mem_dim=4):
        super().__init__()
        self.q_proj = nn.Linear(hidden_dim, hidden_dim)
        self.k_proj = nn.Linear(mem_dim, hidden_dim)
        self.v_proj = nn.Linear(mem_dim, hidden_dim)

    def forward(self, current_vision_features, memory, memory_posision_embeddings):
        q = self.q_proj(current_vision_features)
        k = self.k_proj(memory + memory_posision_embeddings)
        v = self.v_proj(memory)
        attn = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        return current_vision_features + attn @ v

class Sam2VideoModel(nn.Module):
    def __init__(self, hidden_dim=8, mem_dim=4):
        super().__init__()
        self.patch_embed = nn.Linear(3, hidden_dim)            # vision encoder stand-in
        self.point_embed = nn.Linear(2, hidden_dim)            # prompt encoder stand-in
        self.mask_decoder = nn.Linear(hidden_dim, 1)
        self.object_pointer_proj = nn.Linear(hidden_dim, mem_dim)
        self.memory_encoder = nn.Linear(hidden_dim + 1, mem_dim)
        self.memory_attention = Sam2VideoMemoryAttention(hidden_dim, mem_dim)
        self.no_memory_embedding = nn.Parameter(torch.zeros(1, 1, hidden_dim))

    def _prepare_memory_conditioned_features(self, inference_session, frame_idx, is_initial_conditioning_frame,
                                             current_vision_features):
        if is_initial_conditioning_frame:
            return current_vision_features + self.no_memory_embedding
        device = current_vision_features.device
        memories_to_concatenate = []
        memory_positional_embeddings_to_concatenate = []
        outputs = inference_session.output_dict_per_obj[0]
        for prev_output_data in list(outputs["cond_frame_outputs"].values()) + list(outputs["non_cond_frame_outputs"].values()):
            memory_features = prev_output_data["maskmem_features"].to(device, non_blocking=True)
            memories_to_concatenate.append(memory_features)
            memory_positional_embeddings_to_concatenate.append(prev_output_data["maskmem_pos_enc"].to(device))
        object_pointers = torch.stack([out["object_pointer"] for out in outputs["cond_frame_outputs"].values()], dim=1)
        memories_to_concatenate.append(object_pointers)
        memory_positional_embeddings_to_concatenate.append(torch.zeros_like(object_pointers))
        combined_memory = torch.cat(memories_to_concatenate, dim=1)
        combined_memory_positional_embeddings = torch.cat(memory_positional_embeddings_to_concatenate, dim=1)
        return self.memory_attention(current_vision_features=current_vision_features, memory=combined_memory,
                                     memory_posision_embeddings=combined_memory_positional_embeddings)

    def _encode_new_memory(self, current_vision_feats, pred_masks_high_res):
        mask_for_mem = torch.sigmoid(pred_masks_high_res)
        maskmem_features = self.memory_encoder(torch.cat([current_vision_feats, mask_for_mem], dim=-1))
        maskmem_pos_enc = torch.zeros_like(maskmem_features)
        # convert to bfloat16 to save memory, and for consistency with the original implementation
        maskmem_features = maskmem_features.to(torch.bfloat16)
        maskmem_pos_enc = maskmem_pos_enc.to(pred_masks_high_res.dtype)
        return maskmem_features, maskmem_pos_enc

    def forward(self, inference_session, frame):
        frame_idx = len(inference_session.processed_frames)
        inference_session.processed_frames.append(frame)
        current_vision_feats = self.patch_embed(frame.to(inference_session.dtype))
        point_inputs = inference_session.point_inputs_per_obj[0].get(frame_idx)
        is_init_cond_frame = point_inputs is not None
        pix_feat = self._prepare_memory_conditioned_features(inference_session, frame_idx, is_init_cond_frame,
                                                             current_vision_feats)
        if point_inputs is not None:
            pix_feat = pix_feat + self.point_embed(point_inputs.to(pix_feat.dtype)).mean(0)
        pred_masks = self.mask_decoder(pix_feat)
        maskmem_features, maskmem_pos_enc = self._encode_new_memory(current_vision_feats, pred_masks)
        key = "cond_frame_outputs" if is_init_cond_frame else "non_cond_frame_outputs"
        inference_session.output_dict_per_obj[0][key][frame_idx] = {
            "maskmem_features": maskmem_features, "maskmem_pos_enc": maskmem_pos_enc,
            "object_pointer": self.object_pointer_proj(pix_feat.mean(1))}
        return types.SimpleNamespace(pred_masks=pred_masks)

device = torch.device("cpu")                 # "cuda" in the report; the dtype mismatch is the same
dtype = torch.float16
model = Sam2VideoModel().to(device, dtype=dtype)          # Sam2VideoModel.from_pretrained("facebook/sam2.1-hiera-tiny")
processor = Sam2VideoProcessor()
video_frames = [torch.rand(8, 8, 3) for _ in range(4)]
inference_session = processor.init_video_session(inference_device=device, dtype=dtype)
'''
CELL = '''
for frame_idx, frame in enumerate(video_frames):
    inputs = processor(images=frame, device=device, return_tensors="pt")
    if frame_idx == 0:
        processor.add_inputs_to_inference_session(inference_session, frame_idx=0, obj_ids=1,
                                                  input_points=[[[[4, 4]]]], input_labels=[[[1]]],
                                                  original_size=inputs.original_sizes[0])
    sam2_video_output = model(inference_session=inference_session, frame=inputs.pixel_values[0][None])
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        combined_memory = torch.cat(memories_to_concatenate, dim=1)\n",
                  "        combined_memory = torch.cat(memories_to_concatenate, dim=1).to(inference_session.dtype)\n")
CLEAN = False
