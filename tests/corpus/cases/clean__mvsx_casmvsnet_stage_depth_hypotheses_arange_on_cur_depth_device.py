"""CasMVSNet `get_depth_range_samples`: each stage's depth hypotheses are made in the forward with `torch.arange(..., device=..., dtype=...)` taken from the images and the previous stage's depth.

Source: https://github.com/alibaba/cascade-stereo/blob/master/CasMVSNet/models/module.py
Stage 1 samples `ndepth` planes between the batch's `depth_values` ends with
`torch.arange(0, ndepth, device=device, dtype=dtype)`, where `CascadeMVSNet.forward` passes
`device=img[0].device, dtype=img[0].dtype`; later stages call `get_cur_depth_range_samples`, which
builds the per-pixel ramp with `torch.arange(0, ndepth, device=cur_depth.device, dtype=cur_depth.dtype)`
around the upsampled, detached depth of the stage before. Look-alike: new tensors created inside the
forward of a GPU model, placed from the tensors they meet, so nothing is left on the CPU.
Stand-ins: the two functions as in the source; the stage-1 depth map is a random tensor on the GPU
in place of the cost-volume regression; `.cuda()` written `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

def get_cur_depth_range_samples(cur_depth, ndepth, depth_inteval_pixel, shape, max_depth=192.0, min_depth=0.0):
    #shape, (B, H, W)
    #cur_depth: (B, H, W)
    #return depth_range_values: (B, D, H, W)
    cur_depth_min = (cur_depth - ndepth / 2 * depth_inteval_pixel)  # (B, H, W)
    cur_depth_max = (cur_depth + ndepth / 2 * depth_inteval_pixel)

    assert cur_depth.shape == torch.Size(shape), "cur_depth:{}, input shape:{}".format(cur_depth.shape, shape)
    new_interval = (cur_depth_max - cur_depth_min) / (ndepth - 1)  # (B, H, W)

    depth_range_samples = cur_depth_min.unsqueeze(1) + (torch.arange(0, ndepth, device=cur_depth.device,
                                                                  dtype=cur_depth.dtype,
                                                                  requires_grad=False).reshape(1, -1, 1,
                                                                                               1) * new_interval.unsqueeze(1))
    return depth_range_samples

def get_depth_range_samples(cur_depth, ndepth, depth_inteval_pixel, device, dtype, shape,
                           max_depth=192.0, min_depth=0.0):
    #shape: (B, H, W)
    #cur_depth: (B, H, W) or (B, D)
    #return depth_range_samples: (B, D, H, W)
    if cur_depth.dim() == 2:
        cur_depth_min = cur_depth.select(1, 0)  # (B,)   cur_depth[:, 0]
        cur_depth_max = cur_depth.select(1, -1)        # cur_depth[:, -1]
        new_interval = (cur_depth_max - cur_depth_min) / (ndepth - 1)  # (B, )

        depth_range_samples = cur_depth_min.unsqueeze(1) + (torch.arange(0, ndepth, device=device, dtype=dtype,
                                                                       requires_grad=False).reshape(1, -1) * new_interval.unsqueeze(1)) #(B, D)

        depth_range_samples = depth_range_samples.unsqueeze(-1).unsqueeze(-1).repeat(1, 1, shape[1], shape[2]) #(B, D, H, W)
    else:
        depth_range_samples = get_cur_depth_range_samples(cur_depth, ndepth, depth_inteval_pixel, shape, max_depth, min_depth)
    return depth_range_samples

ndepths = [48, 32, 8]
depth_interals_ratio = [4, 2, 1]
img = torch.rand(1, 3, 3, 64, 80).to("cuda:0")                  # sample_cuda["imgs"], [B, Nview, 3, H, W]
depth_values = torch.linspace(425.0, 935.0, 192)[None].to("cuda:0")
depth_interval = (935.0 - 425.0) / 191
'''
CELL = '''
img0 = torch.unbind(img, 1)[0]
depth_stage1 = None
hypotheses = []
for stage_idx, stage_scale in enumerate([4.0, 2.0, 1.0]):
    H, W = img0.shape[2] // int(stage_scale), img0.shape[3] // int(stage_scale)
    if depth_stage1 is not None:
        cur_depth = depth_stage1.detach()
        cur_depth = F.interpolate(cur_depth.unsqueeze(1), [H, W], mode='bilinear', align_corners=False).squeeze(1)
    else:
        cur_depth = depth_values
    depth_range_samples = get_depth_range_samples(cur_depth=cur_depth,
                                                  ndepth=ndepths[stage_idx],
                                                  depth_inteval_pixel=depth_interals_ratio[stage_idx] * depth_interval,
                                                  dtype=img0.dtype,
                                                  device=img0.device,
                                                  shape=[img0.shape[0], H, W],
                                                  max_depth=935.0, min_depth=425.0)
    hypotheses.append(depth_range_samples)
    # the stage's regressed depth (stand-in for cost regularization + depth_regression)
    depth_stage1 = torch.sum(torch.softmax(torch.randn_like(depth_range_samples), 1) * depth_range_samples, 1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
