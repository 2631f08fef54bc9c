"""SCANimate training on "cuda:1": batch tensors go `.to(device=cuda)`, the nested `smpl_data` ones `.cuda()` (GPU 0).

Source: https://github.com/shunsukesaito/SCANimate/issues/8
"Tensors are on different gpu when training with 'cuda:1'": apps/train_scanimate.py L223, "Please
change `.cuda()` to `.to(cuda)`. It gives error, when the `cuda` is not `cuda:0`". In the training
loops `betas`, `body_pose`, `scan_posed`, ... are moved with `.to(device=cuda)` while the entries of
`train_data['smpl_data']` (`smpl_cano`, `smpl_posed`, `jT`, `inv_rootT`, ...) use `.cuda()`, i.e.
the current device cuda:0; the first `torch.einsum('bst,bvt->bvs', inv_rootT,
homogenize(scan_posed))` then mixes GPU 0 and GPU 1. Stand-in: the loop body of
pretrain_skinning_net as a step function with a small inverse-skinning net on `cuda`; `.cuda()` is
written `.to("cuda:0")`, the current device.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

def homogenize(v, dim=2):
    if dim == 2:
        return torch.cat([v, torch.ones_like(v[:, :, :1])], -1)
    return torch.cat([v, torch.ones_like(v[:, :1, :])], 1)

class InvSkinNet(nn.Module):
    def __init__(self, n_joints=24):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.Softplus(), nn.Linear(32, n_joints))

    def forward(self, scan, jT):
        lbs = torch.softmax(self.mlp(scan), dim=-1)               # (B, N, 24)
        T = torch.einsum('bnj,bjst->bnst', lbs, jT)                # blend joint transforms
        return torch.einsum('bnst,bnt->bns', T, homogenize(scan))[:, :, :3]

cuda = torch.device("cuda:1")                                      # --gpu_id 1
inv_skin_net = InvSkinNet().to(cuda)

def train_step(train_data):
    betas = train_data['betas'].to(device=cuda)
    body_pose = train_data['body_pose'].to(device=cuda)
    scan_posed = train_data['scan_cano_uni'].to(device=cuda)
    smpl_data = train_data['smpl_data']

    smpl_cano = smpl_data['smpl_cano'].to("cuda:0")                # .cuda()
    smpl_posed = smpl_data['smpl_posed'].to("cuda:0")              # .cuda()
    jT = smpl_data['jT'].to("cuda:0")                              # .cuda()
    inv_rootT = smpl_data['inv_rootT'].to("cuda:0")                # .cuda()

    # Get rid of global rotation from posed scans
    scan_posed = torch.einsum('bst,bvt->bvs', inv_rootT, homogenize(scan_posed))[:,:,:3]
    pred_scan_cano = inv_skin_net(scan_posed, jT)
    return ((pred_scan_cano - smpl_cano[:, :1]) ** 2).mean()

B, N = 2, 64
train_data = {
    'betas': torch.randn(B, 10), 'body_pose': torch.randn(B, 72),
    'scan_cano_uni': torch.randn(B, N, 3),
    'smpl_data': {'smpl_cano': torch.randn(B, 100, 3), 'smpl_posed': torch.randn(B, 100, 3),
                  'jT': torch.eye(4).expand(B, 24, 4, 4).clone(), 'inv_rootT': torch.eye(4).expand(B, 4, 4).clone()},
}
'''
CELL = '''
err = train_step(train_data)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "found two different devices",
                "Unhandled FakeTensor Device Propagation")
CULPRITS = ["train_data['smpl_data']"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """    smpl_cano = smpl_data['smpl_cano'].to("cuda:0")                # .cuda()
    smpl_posed = smpl_data['smpl_posed'].to("cuda:0")              # .cuda()
    jT = smpl_data['jT'].to("cuda:0")                              # .cuda()
    inv_rootT = smpl_data['inv_rootT'].to("cuda:0")                # .cuda()
""",
    """    smpl_cano = smpl_data['smpl_cano'].to(cuda)
    smpl_posed = smpl_data['smpl_posed'].to(cuda)
    jT = smpl_data['jT'].to(cuda)
    inv_rootT = smpl_data['inv_rootT'].to(cuda)
""",
)
CLEAN = False
