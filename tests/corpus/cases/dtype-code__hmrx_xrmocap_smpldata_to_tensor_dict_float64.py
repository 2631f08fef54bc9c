"""XRMoCap SMPLData.to_tensor_dict hands float64 parameters to a float32 SMPL body model.

Source: https://github.com/openxrlab/xrmocap/pull/41
XRMoCap keeps SMPL parameters in `SMPLData`, a dict of numpy arrays (fullpose, transl, betas; the
defaults are `np.zeros`, i.e. float64, and npz files load as float64). Its documented way to feed a
body model is `body_model(**smpl_data.to_tensor_dict(device=...))`, and `to_tensor_dict` built each
value with `torch.tensor(value, device=device)`, keeping float64. PR #41 ("Fix wrong data dtype error
caused by to_tensor_dict") makes it `torch.tensor(value, device=device, dtype=torch.float32)`.
Stand-ins: SMPLData reduced to the methods on the path (set_*/get_*/to_param_dict/to_tensor_dict) and a
float32 smplx-style SMPL layer (blend shapes + joint regression, random buffers at a reduced vertex count).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SMPLData(dict):
    BODY_POSE_LEN = 23

    def __init__(self, src_dict=None, gender=None, fullpose=None, transl=None, betas=None):
        if src_dict is not None:
            super().__init__(src_dict)
        else:
            super().__init__()
        if gender is None and 'gender' not in self:
            gender = 'neutral'
        super().__setitem__('gender', gender)
        if fullpose is None and 'fullpose' not in self:
            fullpose = np.zeros(shape=(1, self.get_fullpose_dim(), 3))
        if fullpose is not None:
            self.set_fullpose(fullpose)
        if transl is None and 'transl' not in self:
            transl = np.zeros(shape=(self.get_batch_size(), 3))
        if transl is not None:
            self.set_transl(transl)
        if betas is None and 'betas' not in self:
            betas = np.zeros(shape=(self.get_batch_size(), 10))
        if betas is not None:
            self.set_betas(betas)

    @classmethod
    def get_fullpose_dim(cls):
        return 1 + cls.BODY_POSE_LEN

    def set_fullpose(self, fullpose):
        if isinstance(fullpose, torch.Tensor):
            fullpose = fullpose.detach().cpu().numpy()
        super().__setitem__('fullpose', fullpose.reshape(-1, self.get_fullpose_dim(), 3))

    def set_transl(self, transl):
        if isinstance(transl, torch.Tensor):
            transl = transl.detach().cpu().numpy()
        super().__setitem__('transl', transl.reshape(-1, 3))

    def set_betas(self, betas):
        if isinstance(betas, torch.Tensor):
            betas = betas.detach().cpu().numpy()
        if len(betas.shape) == 1:
            betas = betas[np.newaxis, ...]
        super().__setitem__('betas', betas.reshape(-1, betas.shape[-1]))

    def get_batch_size(self):
        return self['fullpose'].shape[0]

    def get_global_orient(self):
        return self['fullpose'][:, 0].reshape(-1, 3)

    def get_body_pose(self):
        return self['fullpose'][:, 1:1 + self.BODY_POSE_LEN].reshape(self.get_batch_size(), -1, 3)

    def get_betas(self, repeat_betas=True):
        betas = self['betas']
        if repeat_betas and betas.shape[0] == 1 and betas.shape[0] != self.get_batch_size():
            betas = betas.repeat(repeats=self.get_batch_size(), axis=0)
        return betas

    def to_param_dict(self, repeat_betas=True):
        return {
            'betas': self.get_betas(repeat_betas=repeat_betas),
            'body_pose': self.get_body_pose().reshape(self.get_batch_size(), -1),
            'global_orient': self.get_global_orient().reshape(self.get_batch_size(), 3),
            'transl': self['transl'].reshape(-1, 3),
        }

    def to_tensor_dict(self, repeat_betas=True, device='cpu'):
        np_dict = self.to_param_dict(repeat_betas=repeat_betas)
        dict_to_return = {}
        for key, value in np_dict.items():
            dict_to_return[key] = torch.tensor(value, device=device)
        return dict_to_return

def blend_shapes(betas, shape_disps):
    return torch.einsum('bl,mkl->bmk', [betas, shape_disps])

class SMPL(nn.Module):
    """smplx-style SMPL layer: float32 buffers."""
    def __init__(self, num_verts=200, num_betas=10, dtype=torch.float32):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.register_buffer('v_template', torch.randn(num_verts, 3, generator=g).to(dtype))
        self.register_buffer('shapedirs', (torch.randn(num_verts, 3, num_betas, generator=g) * 1e-2).to(dtype))
        self.register_buffer('J_regressor', torch.rand(24, num_verts, generator=g).to(dtype) / num_verts)

    def forward(self, betas=None, body_pose=None, global_orient=None, transl=None):
        v_shaped = self.v_template + blend_shapes(betas, self.shapedirs)
        joints = torch.einsum('bik,ji->bjk', [v_shaped, self.J_regressor])
        return v_shaped + transl.unsqueeze(1), joints + transl.unsqueeze(1)

body_model = SMPL()
fullpose = np.random.RandomState(0).randn(4, 24, 3) * 0.1        # as loaded from an npz: float64
smpl_data = SMPLData(gender='neutral', fullpose=fullpose,
                     transl=np.zeros((4, 3)), betas=np.zeros((1, 10)))
'''
CELL = '''
vertices, joints = body_model(**smpl_data.to_tensor_dict(device='cpu'))
'''
EXPECT_ERROR = ("expected scalar type", "same dtype")
CULPRITS = ["smpl_data"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dict_to_return[key] = torch.tensor(value, device=device)",
                  "dict_to_return[key] = torch.tensor(value, device=device, dtype=torch.float32)")
CLEAN = False
