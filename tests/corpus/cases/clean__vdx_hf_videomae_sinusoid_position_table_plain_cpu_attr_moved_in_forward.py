"""HF VideoMAE video classification on the GPU: the fixed sin-cos position table is a plain CPU attribute, moved to the embeddings' device in forward.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/videomae/modeling_videomae.py
`VideoMAEEmbeddings.__init__` stores `self.position_embeddings = get_sinusoid_encoding_table(
num_patches, hidden_size)`, a plain tensor attribute that `model.to("cuda")` does not move, and
`forward` adds it as `self.position_embeddings.type_as(embeddings).to(embeddings.device).clone()
.detach()`. The video-classification guide moves the processor output with `{k: v.to(device)}` and
runs `model(**inputs).logits` on the GPU. Stand-in: VideoMAEForVideoClassification at toy size
(tubelet Conv3d patch embedding, one pre-norm encoder block, mean pooling + fc_norm + classifier),
processor output as a CPU `pixel_values` dict; no masking (`bool_masked_pos=None`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def get_sinusoid_encoding_table(n_position, d_hid):
    def get_position_angle_vec(position):
        return [position / np.power(10000, 2 * (hid_j // 2) / d_hid) for hid_j in range(d_hid)]
    sinusoid_table = np.array([get_position_angle_vec(pos_i) for pos_i in range(n_position)])
    sinusoid_table[:, 0::2] = np.sin(sinusoid_table[:, 0::2])
    sinusoid_table[:, 1::2] = np.cos(sinusoid_table[:, 1::2])
    return torch.FloatTensor(sinusoid_table).unsqueeze(0)

class VideoMAEPatchEmbeddings(nn.Module):
    def __init__(self, image_size=32, patch_size=8, num_channels=3, hidden_size=64, num_frames=8, tubelet_size=2):
        super().__init__()
        self.num_patches = (image_size // patch_size) ** 2 * (num_frames // tubelet_size)
        self.projection = nn.Conv3d(num_channels, hidden_size, kernel_size=(tubelet_size, patch_size, patch_size),
                                    stride=(tubelet_size, patch_size, patch_size))

    def forward(self, pixel_values):
        pixel_values = pixel_values.permute(0, 2, 1, 3, 4)      # (B, C, T, H, W)
        return self.projection(pixel_values).flatten(2).transpose(1, 2)

class VideoMAEEmbeddings(nn.Module):
    def __init__(self, hidden_size=64):
        super().__init__()
        self.patch_embeddings = VideoMAEPatchEmbeddings(hidden_size=hidden_size)
        self.num_patches = self.patch_embeddings.num_patches
        # fixed sin-cos embedding
        self.position_embeddings = get_sinusoid_encoding_table(self.num_patches, hidden_size)

    def forward(self, pixel_values, bool_masked_pos):
        embeddings = self.patch_embeddings(pixel_values)
        embeddings = embeddings + self.position_embeddings.type_as(embeddings).to(embeddings.device).clone().detach()
        return embeddings

class VideoMAELayer(nn.Module):
    def __init__(self, hidden_size=64, heads=4):
        super().__init__()
        self.layernorm_before = nn.LayerNorm(hidden_size)
        self.attention = nn.MultiheadAttention(hidden_size, heads, batch_first=True)
        self.layernorm_after = nn.LayerNorm(hidden_size)
        self.mlp = nn.Sequential(nn.Linear(hidden_size, 4 * hidden_size), nn.GELU(), nn.Linear(4 * hidden_size, hidden_size))

    def forward(self, hidden_states):
        h = self.layernorm_before(hidden_states)
        hidden_states = hidden_states + self.attention(h, h, h, need_weights=False)[0]
        return hidden_states + self.mlp(self.layernorm_after(hidden_states))

class VideoMAEForVideoClassification(nn.Module):
    def __init__(self, num_labels=10, hidden_size=64):
        super().__init__()
        self.embeddings = VideoMAEEmbeddings(hidden_size)
        self.encoder = nn.ModuleList([VideoMAELayer(hidden_size)])
        self.fc_norm = nn.LayerNorm(hidden_size)
        self.classifier = nn.Linear(hidden_size, num_labels)

    def forward(self, pixel_values, labels=None):
        hidden_states = self.embeddings(pixel_values, bool_masked_pos=None)
        for layer in self.encoder:
            hidden_states = layer(hidden_states)
        logits = self.classifier(self.fc_norm(hidden_states.mean(1)))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}

device = "cuda:0"
model = VideoMAEForVideoClassification(num_labels=10).to(device).eval()

# VideoMAEImageProcessor(list(video), return_tensors="pt") output: CPU pixel_values (1, T, C, H, W)
inputs = {"pixel_values": torch.randn(1, 8, 3, 32, 32)}
'''
CELL = '''
inputs = {k: v.to(device) for k, v in inputs.items()}
with torch.no_grad():
    outputs = model(**inputs)
    logits = outputs["logits"]
predicted_label = logits.argmax(-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
