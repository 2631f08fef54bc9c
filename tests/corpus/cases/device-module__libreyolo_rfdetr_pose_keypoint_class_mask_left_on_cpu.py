"""LibreYOLO RF-DETR pose on CUDA: the decoder's `keypoint_class_mask` stays on the CPU while the parameters move to cuda:0.

Source: https://github.com/LibreYOLO/libreyolo/issues/874
"RF-DETR pose works on CPU but RuntimeError on CUDA (attn_bias is on cpu)": `LibreYOLO("pose.pt",
task="pose", device="cuda:0")` then `model.predict(...)` failed in the decoder layer's
`forward_post` at `self.kp_inst_self_attn(q, k, v, attn_mask=keypoint_class_mask,
need_weights=False)` with "Expected all tensors to be on the same device, but got attn_bias is on
cpu, different from other tensors on cuda:0". The user checked: after loading, the parameters are
on cuda:0 but the decoder's `keypoint_class_mask` is still on the CPU. Stand-in: a keypoint decoder
layer whose class mask is kept as a plain tensor attribute (so `Module.to()` leaves it behind) and a
small query/keypoint-token decoder; checkpoint loading and post-processing are left out.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class KeypointDecoderLayer(nn.Module):
    def __init__(self, d_model=64, nhead=4, num_keypoints=17):
        super().__init__()
        self.num_keypoints = num_keypoints
        self.self_attn = nn.MultiheadAttention(d_model, nhead, batch_first=False)
        self.kp_inst_self_attn = nn.MultiheadAttention(d_model, nhead, batch_first=False)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear = nn.Linear(d_model, d_model)
        # instance token may attend to its own keypoint tokens only (per-group mask)
        n = 1 + num_keypoints
        self.keypoint_class_mask = torch.zeros(n, n, dtype=torch.bool)

    def forward_post(self, tgt):
        q = k = v = tgt
        tgt = self.norm1(tgt + self.self_attn(q, k, v, need_weights=False)[0])
        keypoint_class_mask = self.keypoint_class_mask
        q = k = v = tgt
        combined_out = self.kp_inst_self_attn(q, k, v, attn_mask=keypoint_class_mask, need_weights=False)[0]
        return self.norm2(tgt + self.linear(combined_out))

    def forward(self, tgt):
        return self.forward_post(tgt)

class RFDETRPose(nn.Module):
    def __init__(self, d_model=64, num_queries=10, num_keypoints=17, num_layers=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, d_model, 16, stride=16), nn.GELU())
        self.query_embed = nn.Embedding(1 + num_keypoints, d_model)
        self.layers = nn.ModuleList([KeypointDecoderLayer(d_model, 4, num_keypoints) for _ in range(num_layers)])
        self.kp_head = nn.Linear(d_model, 3)

    def forward(self, x):
        feats = self.backbone(x).flatten(2).mean(-1)                   # (B, d)
        tgt = self.query_embed.weight[:, None, :] + feats[None]        # (1+K, B, d)
        for layer in self.layers:
            tgt = layer(tgt)
        return self.kp_head(tgt[1:])                                   # (K, B, 3)

class LibreYOLO:
    def __init__(self, weights, task="pose", device="cpu"):
        self.device = torch.device(device)
        self.model = RFDETRPose()
        # state = torch.load(weights, map_location="cpu"); self.model.load_state_dict(state["model"])
        self.model.to(self.device).eval()

    def predict(self, source, conf=0.25, iou=0.5, verbose=False):
        x = source.to(self.device)
        with torch.no_grad():
            return self.model(x)

model = LibreYOLO("pose.pt", task="pose", device="cuda:0")
img = torch.rand(1, 3, 192, 192)
'''
CELL = '''
preds = model.predict(source=img, conf=0.25, iou=0.5, verbose=False)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["model.model.layers"]
FIX = "namespace"
REFERENCE_FIX = '''
for layer in model.model.layers:
    layer.keypoint_class_mask = layer.keypoint_class_mask.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
