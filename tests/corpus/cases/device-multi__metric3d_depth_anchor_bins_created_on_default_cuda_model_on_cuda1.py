"""Metric3D on cuda:1: the depth-bin anchor buffer is created lazily with device="cuda", i.e. on cuda:0.

Source: https://github.com/YvanYin/Metric3D/issues/159
"Does the code only run on GPU:0?" After moving the model and `rgb` to GPU 1,
`model.inference({'input': rgb})` failed in `RAFTDepthNormalDPTDecoder5.compute_depth_expectation`
at `depth = torch.sum(prob * depth_values, 1)` with "Expected all tensors to be on the same device,
but found at least two devices, cuda:1 and cuda:0!". The maintainer: the depth values are created
inside the network, not a parameter; `get_bins` does `torch.linspace(..., device="cuda")` and
`regress_depth` registers the result as a buffer on the first call, so it lands on the current
default GPU. Stand-ins: the ViT encoder and DPT decoder reduced to two convolutions; the NaN
logging (data-dependent prints) left out; the RAFT refinement dropped.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import math
import torch
import torch.nn as nn

def compute_depth_expectation(prob, depth_values):
    depth_values = depth_values.view(*depth_values.shape, 1, 1)
    depth = torch.sum(prob * depth_values, 1)
    return depth

class RAFTDepthNormalDPT5(nn.Module):
    def __init__(self, in_ch=32, min_val=0.1, max_val=200.0):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.regress_scale = 100.0
        self.num_depth_regressor_anchor = 64
        self.decoder_mono = nn.Conv2d(in_ch, in_ch, 3, padding=1)
        self.depth_regressor = nn.Sequential(
            nn.Conv2d(in_ch, self.num_depth_regressor_anchor, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(self.num_depth_regressor_anchor, self.num_depth_regressor_anchor, kernel_size=1),
        )
        self.relu = nn.ReLU(inplace=True)

    def get_bins(self, bins_num):
        depth_bins_vec = torch.linspace(math.log(self.min_val), math.log(self.max_val), bins_num, device="cuda:0")   # device="cuda"
        depth_bins_vec = torch.exp(depth_bins_vec)
        return depth_bins_vec

    def register_depth_expectation_anchor(self, bins_num, B):
        depth_bins_vec = self.get_bins(bins_num)
        depth_bins_vec = depth_bins_vec.unsqueeze(0).repeat(B, 1)
        self.register_buffer('depth_expectation_anchor', depth_bins_vec, persistent=False)

    def clamp(self, x):
        y = self.relu(x - self.min_val) + self.min_val
        y = self.max_val - self.relu(self.max_val - y)
        return y

    def regress_depth(self, feature_map_d):
        prob_feature = self.depth_regressor(feature_map_d)
        prob = prob_feature.softmax(dim=1)
        B = prob.shape[0]
        if "depth_expectation_anchor" not in self._buffers:
            self.register_depth_expectation_anchor(self.num_depth_regressor_anchor, B)
        d = compute_depth_expectation(
            prob,
            self.depth_expectation_anchor[:B, ...]).unsqueeze(1)
        return (self.clamp(d) - self.max_val) / self.regress_scale, prob_feature

    def forward(self, features):
        ref_feat = self.decoder_mono(features)
        depth_pred, binmap = self.regress_depth(ref_feat)
        return depth_pred, binmap

class DepthModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Conv2d(3, 32, kernel_size=14, stride=14)     # ViT patch features
        self.decode_head = RAFTDepthNormalDPT5(32)

    def inference(self, data):
        feats = self.encoder(data['input'])
        depth, binmap = self.decode_head(feats)
        confidence = binmap.softmax(1).max(1)[0]
        return depth, confidence, {'prediction': depth}

device = torch.device("cuda:1")
model = DepthModel().to(device).eval()
rgb = torch.rand(1, 3, 616, 1064).to(device)
'''
CELL = '''
with torch.no_grad():
    pred_depth, confidence, output_dict = model.inference({'input': rgb})
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.decode_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('bins_num, device="cuda:0")', 'bins_num, device=self.depth_regressor[0].weight.device)')
CLEAN = False
