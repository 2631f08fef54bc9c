"""Hugging Face RT-DETR loaded in float16/bfloat16: the encoder builds its sin-cos position embedding in float32 on every call.

Source: https://github.com/huggingface/transformers/pull/31639
Running `RTDetrForObjectDetection.from_pretrained(..., torch_dtype=torch.float16)` on half-precision pixel
values crashes in the hybrid encoder. Cause given in the PR ("Fix positional embeddings and anchor data
types"): `RTDetrHybridEncoder.forward` calls `build_2d_sincos_position_embedding`, which makes its
tensors with `dtype=torch.float32`, and only moves the result with `.to(src_flatten.device)`; adding it
to the half-precision features promotes the query to float32, which the half-precision `q_proj` of the
encoder layer rejects. The fix passes the features' dtype (and device) to the embedding.
Stand-in: RTDetrForObjectDetection reduced to a strided-conv backbone, the input projection, one
encoder layer (hand-written attention) and the class/box heads; the decoder and its anchors (also made
dtype-aware by the PR) are left out. bfloat16 on the CPU stands for float16 on CUDA.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

class RTDetrSelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def with_pos_embed(self, tensor, position_embeddings):
        return tensor if position_embeddings is None else tensor + position_embeddings

    def forward(self, hidden_states, position_embeddings=None):
        b, n, d = hidden_states.shape
        hidden_states_original = hidden_states
        hidden_states = self.with_pos_embed(hidden_states, position_embeddings)
        q = self.q_proj(hidden_states).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states_original).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        attn = torch.softmax(q @ k.transpose(-1, -2) / self.head_dim ** 0.5, dim=-1)
        return self.out_proj((attn @ v).transpose(1, 2).reshape(b, n, d))

class RTDetrEncoderLayer(nn.Module):
    def __init__(self, d_model=32, num_heads=4, ffn_dim=64):
        super().__init__()
        self.self_attn = RTDetrSelfAttention(d_model, num_heads)
        self.self_attn_layer_norm = nn.LayerNorm(d_model)
        self.fc1, self.fc2 = nn.Linear(d_model, ffn_dim), nn.Linear(ffn_dim, d_model)
        self.final_layer_norm = nn.LayerNorm(d_model)

    def forward(self, hidden_states, position_embeddings=None):
        hidden_states = self.self_attn_layer_norm(hidden_states + self.self_attn(hidden_states, position_embeddings))
        return self.final_layer_norm(hidden_states + self.fc2(torch.relu(self.fc1(hidden_states))))

class RTDetrHybridEncoder(nn.Module):
    def __init__(self, encoder_hidden_dim=32, positional_encoding_temperature=10000, eval_size=None):
        super().__init__()
        self.encoder_hidden_dim = encoder_hidden_dim
        self.positional_encoding_temperature = positional_encoding_temperature
        self.eval_size = eval_size
        self.encoder = nn.ModuleList([RTDetrEncoderLayer(encoder_hidden_dim)])

    @staticmethod
    def build_2d_sincos_position_embedding(width, height, embed_dim=256, temperature=10000.0):
        grid_w = torch.arange(int(width), dtype=torch.float32)
        grid_h = torch.arange(int(height), dtype=torch.float32)
        grid_w, grid_h = torch.meshgrid(grid_w, grid_h, indexing="ij")
        pos_dim = embed_dim // 4
        omega = torch.arange(pos_dim, dtype=torch.float32) / pos_dim
        omega = 1.0 / (temperature ** omega)
        out_w = grid_w.flatten()[..., None] @ omega[None]
        out_h = grid_h.flatten()[..., None] @ omega[None]
        return torch.concat([out_w.sin(), out_w.cos(), out_h.sin(), out_h.cos()], dim=1)[None, :, :]

    def forward(self, inputs_embeds):
        hidden_states = inputs_embeds
        height, width = hidden_states.shape[2:]
        src_flatten = hidden_states.flatten(2).permute(0, 2, 1)
        if self.training or self.eval_size is None:
            pos_embed = self.build_2d_sincos_position_embedding(
                width, height, self.encoder_hidden_dim, self.positional_encoding_temperature
            ).to(src_flatten.device)
        else:
            pos_embed = None
        return self.encoder[0](src_flatten, position_embeddings=pos_embed)

class RTDetrModel(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.backbone = nn.Conv2d(3, 64, 16, 16)
        self.encoder_input_proj = nn.Sequential(nn.Conv2d(64, d_model, 1, bias=False), nn.BatchNorm2d(d_model))
        self.encoder = RTDetrHybridEncoder(d_model)

    def forward(self, pixel_values):
        return self.encoder(self.encoder_input_proj(self.backbone(pixel_values)))

class RTDetrForObjectDetection(nn.Module):
    def __init__(self, num_labels=80, d_model=32):
        super().__init__()
        self.model = RTDetrModel(d_model)
        self.class_embed = nn.Linear(d_model, num_labels)
        self.bbox_embed = nn.Linear(d_model, 4)

    def forward(self, pixel_values):
        memory = self.model(pixel_values)
        return {"logits": self.class_embed(memory), "pred_boxes": self.bbox_embed(memory).sigmoid()}

    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32, device_map="cpu"):
        return cls().to(device=device_map, dtype=torch_dtype).eval()

device = "cpu"                      # "cuda"
dtype = torch.bfloat16              # torch.float16
model = RTDetrForObjectDetection.from_pretrained("PekingU/rtdetr_r50vd", torch_dtype=dtype, device_map=device)
pixel_values = torch.rand(1, 3, 128, 128).to(device).to(dtype)   # image_processor(images=image, return_tensors="pt")
'''
CELL = '''
with torch.no_grad():
    outputs = model(pixel_values)
assert outputs["logits"].dtype == dtype
'''
EXPECT_ERROR = ("must have the same dtype", "expected scalar type", "expected m1 and m2 to have the same dtype")
CULPRITS = ["model.model.encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (").to(src_flatten.device)", ").to(src_flatten.device, dtype=src_flatten.dtype)")
CLEAN = False
