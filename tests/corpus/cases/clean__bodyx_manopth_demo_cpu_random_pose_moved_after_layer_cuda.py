"""Look-alike: manopth's demo samples the PCA pose and shape on the CPU and moves them, and the layer, to the GPU before the call.

Source: https://github.com/hassony2/manopth/blob/master/examples/manopth_demo.py
`mano_layer = ManoLayer(mano_root='mano/models', use_pca=True, ncomps=args.ncomps,
flat_hand_mean=args.flat_hand_mean)`, `if args.cuda: mano_layer.cuda()`, then
`random_shape = torch.rand(args.batch_size, 10)`, `random_pose = torch.rand(args.batch_size,
args.ncomps + 3)`, both `.cuda()`-ed under the same flag, and `hand_verts, hand_joints =
mano_layer(random_pose, random_shape)`. The layer keeps int64 faces and the PCA basis as buffers, so
everything follows `.cuda()`; the outputs go back to the CPU for display. Stand-in: a reduced
ManoLayer (PCA pose, shape and pose blend shapes, joint regressor) with random buffers.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ManoLayer(nn.Module):
    def __init__(self, mano_root='mano/models', use_pca=True, ncomps=6, flat_hand_mean=False, n_verts=200):
        super().__init__()
        self.ncomps = ncomps
        self.register_buffer('th_faces', torch.randint(0, n_verts, (380, 3)))
        self.register_buffer('th_comps', torch.randn(45, 45) * 0.1)
        self.register_buffer('th_selected_comps', self.th_comps[:ncomps].clone())
        self.register_buffer('th_hands_mean', torch.zeros(1, 45) if flat_hand_mean else torch.randn(1, 45) * 0.1)
        self.register_buffer('th_shapedirs', torch.randn(n_verts, 3, 10) * 0.01)
        self.register_buffer('th_posedirs', torch.randn(n_verts, 3, 48) * 0.01)
        self.register_buffer('th_v_template', torch.randn(1, n_verts, 3))
        self.register_buffer('th_J_regressor', torch.rand(16, n_verts).softmax(-1))

    def forward(self, th_pose_coeffs, th_betas):
        root_pose, hand_pose = torch.split(th_pose_coeffs, [3, self.ncomps], dim=1)
        th_full_hand_pose = hand_pose.mm(self.th_selected_comps)
        th_full_pose = torch.cat([root_pose, self.th_hands_mean + th_full_hand_pose], 1)
        th_v_shaped = torch.matmul(self.th_shapedirs, th_betas.transpose(1, 0)).permute(2, 0, 1) \\
            + self.th_v_template
        th_v_posed = th_v_shaped + torch.matmul(self.th_posedirs, th_full_pose.transpose(0, 1)).permute(2, 0, 1)
        th_jtr = torch.matmul(self.th_J_regressor, th_v_posed)
        return th_v_posed * 1000, th_jtr * 1000

batch_size = 10
ncomps = 6
mano_layer = ManoLayer(mano_root='mano/models', use_pca=True, ncomps=ncomps, flat_hand_mean=False)
mano_layer = mano_layer.to('cuda:0')          # if args.cuda: mano_layer.cuda()
random_shape = torch.rand(batch_size, 10)
random_pose = torch.rand(batch_size, ncomps + 3)
random_pose = random_pose.to('cuda:0')
random_shape = random_shape.to('cuda:0')
'''
CELL = '''
with torch.no_grad():
    hand_verts, hand_joints = mano_layer(random_pose, random_shape)
verts_cpu = hand_verts.cpu()
joints_cpu = hand_joints.cpu()
print(verts_cpu.shape, mano_layer.th_faces.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
