"""nnU-Net's batchgeneratorsv2 `SpatialTransform` on GPU tensors: the sampling grid is built on the CPU.

Source: https://github.com/ScrollPrize/villa/pull/913
The contributor ran batchgeneratorsv2's `SpatialTransform` (vendored in the repo) inside a CUDA
training loop, with the image already on the GPU, and got a device-mismatch RuntimeError.
Cause given in the PR: the transform built its sampling grid and helper tensors on the CPU
(`_create_centered_identity_grid2`, the affine matrix from numpy, `new_center`) while the image
lived on the GPU; the fix passes `img.device` to the grid creation (new `device` kwarg) and moves
the elastic offsets, the affine matrix and `new_center` to that device.
Stand-ins: batchgeneratorsv2's `BasicTransform` dispatch, `SpatialTransform.get_parameters` (rotation
only) and `_apply_to_image`, `_create_centered_identity_grid2` and
`_convert_my_grid_to_grid_sample_grid` (its per-axis `my_grid[..., d] /= s / 2` written as one
broadcast division and `img[None]` as `img.unsqueeze(0)`, since the CPU simulation cannot index a
fake cuda tensor).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import numpy as np
import torch
from torch.nn.functional import grid_sample


def sample_scalar(value, **kwargs):
    if callable(value):
        return value(**kwargs)
    if isinstance(value, (tuple, list)):
        return float(np.random.uniform(value[0], value[1]))
    return float(value)


def create_affine_matrix_3d(rotation_angles, scaling_factors):
    Rx = np.array([[1, 0, 0],
                   [0, np.cos(rotation_angles[0]), -np.sin(rotation_angles[0])],
                   [0, np.sin(rotation_angles[0]), np.cos(rotation_angles[0])]])
    Ry = np.array([[np.cos(rotation_angles[1]), 0, np.sin(rotation_angles[1])],
                   [0, 1, 0],
                   [-np.sin(rotation_angles[1]), 0, np.cos(rotation_angles[1])]])
    Rz = np.array([[np.cos(rotation_angles[2]), -np.sin(rotation_angles[2]), 0],
                   [np.sin(rotation_angles[2]), np.cos(rotation_angles[2]), 0],
                   [0, 0, 1]])
    return Rz @ Ry @ Rx @ np.diag(scaling_factors)


def _create_centered_identity_grid2(size, device=torch.device("cpu")):
    space = [torch.linspace((1 - s) / 2, (s - 1) / 2, s, device=device) for s in size]
    grid = torch.meshgrid(space, indexing="ij")
    grid = torch.stack(grid, -1)
    return grid


def _convert_my_grid_to_grid_sample_grid(my_grid, original_shape):
    # rescale
    my_grid = my_grid / torch.tensor([s / 2 for s in original_shape], device=my_grid.device)
    my_grid = torch.flip(my_grid, (len(my_grid.shape) - 1, ))
    return my_grid


class BasicTransform:
    def __call__(self, **data_dict):
        params = self.get_parameters(**data_dict)
        if data_dict.get('image') is not None:
            data_dict['image'] = self._apply_to_image(data_dict['image'], **params)
        return data_dict


class SpatialTransform(BasicTransform):
    def __init__(self, patch_size, patch_center_dist_from_border, random_crop, p_elastic_deform=0,
                 p_rotation=0, rotation=(0, 2 * np.pi), p_scaling=0, scaling=(0.7, 1.3)):
        self.patch_size = patch_size
        self.patch_center_dist_from_border = patch_center_dist_from_border
        self.random_crop = random_crop
        self.p_elastic_deform = p_elastic_deform
        self.p_rotation, self.rotation = p_rotation, rotation
        self.p_scaling, self.scaling = p_scaling, scaling

    def get_parameters(self, **data_dict):
        dim = data_dict['image'].ndim - 1
        do_rotation = np.random.uniform() < self.p_rotation
        do_scale = np.random.uniform() < self.p_scaling
        angles = [sample_scalar(self.rotation, image=data_dict['image'], dim=i) for i in range(dim)] if do_rotation else [0] * dim
        scales = [sample_scalar(self.scaling, image=data_dict['image'], dim=i) for i in range(dim)] if do_scale else [1] * dim
        affine = create_affine_matrix_3d(angles, scales) if (do_rotation or do_scale) else None
        shape = data_dict['image'].shape[1:]
        center_location_in_pixels = [i / 2 for i in shape]
        return {'affine': affine, 'elastic_offsets': None,
                'center_location_in_pixels': center_location_in_pixels}

    def _apply_to_image(self, img, **params):
        if params['affine'] is None and params['elastic_offsets'] is None:
            raise NotImplementedError('crop_tensor path not part of this stand-in')
        else:
            grid = _create_centered_identity_grid2(self.patch_size)

            # we deform first, then rotate
            if params['elastic_offsets'] is not None:
                grid += params['elastic_offsets']
            if params['affine'] is not None:
                grid = torch.matmul(grid, torch.from_numpy(params['affine']).float())

            # only do this if we elastic deform
            if params['elastic_offsets'] is not None:
                mn = grid.mean(dim=list(range(img.ndim - 1)))
            else:
                mn = 0
            new_center = torch.Tensor([c - s / 2 for c, s in zip(params['center_location_in_pixels'], img.shape[1:])])
            grid += (new_center - mn)
            return grid_sample(img.unsqueeze(0), _convert_my_grid_to_grid_sample_grid(grid, img.shape[1:]).unsqueeze(0),
                               mode='bilinear', padding_mode="zeros", align_corners=False).squeeze(0)


patch_size = (32, 32, 32)
spatial = SpatialTransform(patch_size=patch_size, patch_center_dist_from_border=0, random_crop=False,
                           p_elastic_deform=0, p_rotation=1, rotation=(-np.pi / 6, np.pi / 6), p_scaling=0)
device = torch.device("cuda:0")
image = torch.randn(1, 48, 48, 48, device=device)     # the training loop already put the case on the GPU
'''
CELL = '''
out = spatial(image=image)
patch = out['image']
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["spatial"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''            grid = _create_centered_identity_grid2(self.patch_size)

            # we deform first, then rotate
            if params['elastic_offsets'] is not None:
                grid += params['elastic_offsets']
            if params['affine'] is not None:
                grid = torch.matmul(grid, torch.from_numpy(params['affine']).float())

            # only do this if we elastic deform
            if params['elastic_offsets'] is not None:
                mn = grid.mean(dim=list(range(img.ndim - 1)))
            else:
                mn = 0
            new_center = torch.Tensor([c - s / 2 for c, s in zip(params['center_location_in_pixels'], img.shape[1:])])''',
                  '''            grid = _create_centered_identity_grid2(self.patch_size, device=img.device)

            # we deform first, then rotate
            if params['elastic_offsets'] is not None:
                grid += params['elastic_offsets'].to(img.device)
            if params['affine'] is not None:
                grid = torch.matmul(grid, torch.from_numpy(params['affine']).float().to(img.device))

            # only do this if we elastic deform
            if params['elastic_offsets'] is not None:
                mn = grid.mean(dim=list(range(img.ndim - 1)))
            else:
                mn = 0
            new_center = torch.tensor([c - s / 2 for c, s in zip(params['center_location_in_pixels'], img.shape[1:])],
                                      device=img.device)''')
CLEAN = False
