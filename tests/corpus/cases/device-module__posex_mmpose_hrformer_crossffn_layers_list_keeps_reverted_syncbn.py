"""mmpose HRFormer after `init_model`: CrossFFN runs the SyncBN modules held in its plain `self.layers` list, which `revert_sync_batchnorm` replaced and `.to(device)` never moved.

Source: https://github.com/open-mmlab/mmpose/issues/2448
"Bug when use CrossFFN module and init_model function at the same time": `init_model` calls
`revert_sync_batchnorm`, which swaps every registered SyncBatchNorm for a BatchNorm, but CrossFFN
also keeps `self.layers = [self.fc1, self.norm1, ...]` as a native Python list and its forward loops
over that list, so it still calls the old SyncBN modules; they are not children of the model and
stay on the CPU after `model.to('cuda:0')` (issue #2236: "running_mean ... cuda:0 and cpu" from
`inference_topdown`). The fix (PR #2449) removes the `layers` list and rewrites CrossFFN.forward to
call the registered modules. Stand-in: CrossFFN as in mmpose, a one-block HRFormer-like backbone
with a heatmap head, mmengine's `revert_sync_batchnorm` and an `init_model`/`inference_topdown`
reduced to building, reverting, moving and a forward pass (no config, checkpoint, pipeline).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def nlc_to_nchw(x, hw_shape):
    H, W = hw_shape
    B, L, C = x.shape
    return x.transpose(1, 2).reshape(B, C, H, W)

def nchw_to_nlc(x):
    return x.flatten(2).transpose(1, 2).contiguous()

class CrossFFN(nn.Module):
    def __init__(self, in_features, hidden_features=None, out_features=None):
        super().__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        self.fc1 = nn.Conv2d(in_features, hidden_features, kernel_size=1)
        self.act1 = nn.GELU()
        self.norm1 = nn.SyncBatchNorm(hidden_features)
        self.dw3x3 = nn.Conv2d(hidden_features, hidden_features, kernel_size=3, stride=1,
                               groups=hidden_features, padding=1)
        self.act2 = nn.GELU()
        self.norm2 = nn.SyncBatchNorm(hidden_features)
        self.fc2 = nn.Conv2d(hidden_features, out_features, kernel_size=1)
        self.act3 = nn.GELU()
        self.norm3 = nn.SyncBatchNorm(out_features)

        # put the modules togather
        self.layers = [
            self.fc1, self.norm1, self.act1, self.dw3x3, self.norm2, self.act2,
            self.fc2, self.norm3, self.act3
        ]

    def forward(self, x, H, W):
        x = nlc_to_nchw(x, (H, W))
        for layer in self.layers:
            x = layer(x)
        x = nchw_to_nlc(x)
        return x

class HRFormerBlock(nn.Module):
    def __init__(self, in_features, out_features, num_heads=2, mlp_ratio=4.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(in_features, eps=1e-6)
        self.attn = nn.MultiheadAttention(in_features, num_heads, batch_first=True)
        self.norm2 = nn.LayerNorm(out_features, eps=1e-6)
        self.ffn = CrossFFN(in_features, int(in_features * mlp_ratio), out_features)

    def forward(self, x):
        B, C, H, W = x.size()
        x = x.view(B, C, -1).permute(0, 2, 1)
        y = self.norm1(x)
        x = x + self.attn(y, y, y, need_weights=False)[0]
        x = x + self.ffn(self.norm2(x), H, W)
        x = x.permute(0, 2, 1).reshape(B, C, H, W)
        return x

class HRFormer(nn.Module):
    def __init__(self, channels=32):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, channels, 3, stride=4, padding=1),
                                  nn.SyncBatchNorm(channels), nn.ReLU())
        self.block = HRFormerBlock(channels, channels)

    def forward(self, x):
        return self.block(self.stem(x))

class TopdownPoseEstimator(nn.Module):
    def __init__(self, num_keypoints=17, channels=32):
        super().__init__()
        self.backbone = HRFormer(channels)
        self.head = nn.Conv2d(channels, num_keypoints, 1)

    def forward(self, inputs):
        return self.head(self.backbone(inputs))

def revert_sync_batchnorm(module):
    """mmengine.model.revert_sync_batchnorm: swap SyncBatchNorm children for BatchNorm."""
    module_output = module
    if isinstance(module, nn.SyncBatchNorm):
        module_output = nn.BatchNorm2d(module.num_features, module.eps, module.momentum,
                                       module.affine, module.track_running_stats)
        if module.affine:
            with torch.no_grad():
                module_output.weight = module.weight
                module_output.bias = module.bias
        module_output.running_mean = module.running_mean
        module_output.running_var = module.running_var
        module_output.num_batches_tracked = module.num_batches_tracked
        module_output.training = module.training
    for name, child in module.named_children():
        module_output.add_module(name, revert_sync_batchnorm(child))
    del module
    return module_output

def init_model(config=None, checkpoint=None, device='cuda:0'):
    model = TopdownPoseEstimator()
    model = revert_sync_batchnorm(model)
    # load_checkpoint(model, checkpoint, map_location='cpu')
    model.to(device)
    model.eval()
    return model

def inference_topdown(model, img, bboxes=None, bbox_format='xyxy'):
    device = next(model.parameters()).device
    inputs = img.to(device)
    with torch.no_grad():
        return model(inputs)

pose_estimator = init_model('td-hm_hrformer-small_8xb32-210e_coco-256x192.py',
                            'hrformer_small_coco_256x192.pth', device='cuda:0')
img = torch.rand(1, 3, 64, 48)
bbox = [[0, 0, 48, 64]]
'''
CELL = '''
pose_results = inference_topdown(pose_estimator, img, bbox, 'xywh')
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["pose_estimator.backbone.block.ffn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        for layer in self.layers:
            x = layer(x)
""", """        x = self.act1(self.norm1(self.fc1(x)))
        x = self.act2(self.norm2(self.dw3x3(x)))
        x = self.act3(self.norm3(self.fc2(x)))
""")
CLEAN = False
