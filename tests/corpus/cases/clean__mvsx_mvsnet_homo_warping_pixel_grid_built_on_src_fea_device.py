"""MVSNet-pytorch `homo_warping`: the pixel grid is made inside the function with `device=src_fea.device`, and the batch's filename strings stay behind in `tocuda`.

Source: https://github.com/xy-guo/MVSNet_pytorch/blob/master/models/module.py
`homo_warping(src_fea, src_proj, ref_proj, depth_values)` builds the reference pixel grid with
`torch.meshgrid([torch.arange(0, height, dtype=torch.float32, device=src_fea.device), ...])`, a
`torch.ones_like(x)` row and `torch.inverse(ref_proj)`, then `F.grid_sample`s the source features into a
plane-sweep volume; `depth_regression(p, depth_values)` takes the expectation over the depth planes.
The batch reaches the GPU through utils.py's recursive `tocuda`, which moves tensors and passes
strings through. Look-alike: tensors created inside a helper during the forward, correctly placed on
the input's device, and a batch dict that keeps non-tensor entries on the host.
Stand-ins: the GPU simulated with meta (`.cuda()` in `tocuda` written `.to(device)`); slices written
with `narrow`/`select`; FeatureNet cut to one conv; a small random sample instead of the DTU loader.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("meta")   # the GPU, simulated with meta

def make_recursive_func(func):
    def wrapper(vars):
        if isinstance(vars, list):
            return [wrapper(x) for x in vars]
        elif isinstance(vars, tuple):
            return tuple([wrapper(x) for x in vars])
        elif isinstance(vars, dict):
            return {k: wrapper(v) for k, v in vars.items()}
        else:
            return func(vars)
    return wrapper

@make_recursive_func
def tocuda(vars):
    if isinstance(vars, torch.Tensor):
        return vars.to(device)            # vars.cuda()
    elif isinstance(vars, str):
        return vars
    else:
        raise NotImplementedError("invalid input type {} for tensor2numpy".format(type(vars)))

def homo_warping(src_fea, src_proj, ref_proj, depth_values):
    batch, channels = src_fea.shape[0], src_fea.shape[1]
    num_depth = depth_values.shape[1]
    height, width = src_fea.shape[2], src_fea.shape[3]

    with torch.no_grad():
        proj = torch.matmul(src_proj, torch.inverse(ref_proj))
        rot = proj.narrow(1, 0, 3).narrow(2, 0, 3)  # [B,3,3]   proj[:, :3, :3]
        trans = proj.narrow(1, 0, 3).narrow(2, 3, 1)  # [B,3,1]   proj[:, :3, 3:4]

        y, x = torch.meshgrid([torch.arange(0, height, dtype=torch.float32, device=src_fea.device),
                               torch.arange(0, width, dtype=torch.float32, device=src_fea.device)], indexing="ij")
        y, x = y.contiguous(), x.contiguous()
        y, x = y.view(height * width), x.view(height * width)
        xyz = torch.stack((x, y, torch.ones_like(x)))  # [3, H*W]
        xyz = torch.unsqueeze(xyz, 0).repeat(batch, 1, 1)  # [B, 3, H*W]
        rot_xyz = torch.matmul(rot, xyz)  # [B, 3, H*W]
        rot_depth_xyz = rot_xyz.unsqueeze(2).repeat(1, 1, num_depth, 1) * depth_values.view(batch, 1, num_depth, 1)
        proj_xyz = rot_depth_xyz + trans.view(batch, 3, 1, 1)  # [B, 3, Ndepth, H*W]
        proj_xy = proj_xyz.narrow(1, 0, 2) / proj_xyz.narrow(1, 2, 1)  # [B, 2, Ndepth, H*W]
        proj_x_normalized = proj_xy.select(1, 0) / ((width - 1) / 2) - 1
        proj_y_normalized = proj_xy.select(1, 1) / ((height - 1) / 2) - 1
        proj_xy = torch.stack((proj_x_normalized, proj_y_normalized), dim=3)  # [B, Ndepth, H*W, 2]
        grid = proj_xy

    warped_src_fea = F.grid_sample(src_fea, grid.view(batch, num_depth * height, width, 2), mode='bilinear',
                                   padding_mode='zeros')
    warped_src_fea = warped_src_fea.view(batch, channels, num_depth, height, width)
    return warped_src_fea

def depth_regression(p, depth_values):
    depth_values = depth_values.view(*depth_values.shape, 1, 1)
    depth = torch.sum(p * depth_values, 1)
    return depth

feature = nn.Conv2d(3, 8, 3, 1, 1).to(device)            # FeatureNet, cut to one conv
num_depth = 16
sample = {
    "imgs": torch.rand(1, 3, 3, 32, 40),                # [B, Nview, 3, H, W]
    "proj_matrices": torch.eye(4).repeat(1, 3, 1, 1),   # [B, Nview, 4, 4]
    "depth_values": torch.linspace(425.0, 935.0, num_depth)[None],
    "filename": "scan1/{}/00000000{}",
}
'''
CELL = '''
sample_cuda = tocuda(sample)
imgs = torch.unbind(sample_cuda["imgs"], 1)
proj_matrices = torch.unbind(sample_cuda["proj_matrices"], 1)
depth_values = sample_cuda["depth_values"]
ref_feature = feature(imgs[0])
volume_sum = ref_feature.unsqueeze(2).repeat(1, 1, num_depth, 1, 1)
for src_img, src_proj in zip(imgs[1:], proj_matrices[1:]):
    volume_sum = volume_sum + homo_warping(feature(src_img), src_proj, proj_matrices[0], depth_values)
prob_volume = F.softmax(volume_sum.mean(1), dim=1)
depth = depth_regression(prob_volume, depth_values=depth_values)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
