"""PyTorch_YOLOv4 (darknet cfg models) on several GPUs: `build_targets` reads `anchor_vec` from `model.module`, still on the CPU.

Source: https://github.com/WongKinYiu/PyTorch_YOLOv4/issues/296
"This error comes out when training with multiple gpus", in `build_target` of utils/general.py; the
reporter's fix: `anchors = anchors.to(targets.device)` right after
`anchors = model.module.module_list[jj].anchor_vec if multi_gpu else model.module_list[jj].anchor_vec`.
`YOLOLayer.anchor_vec` is a plain tensor attribute made on the CPU in `__init__`; `create_grids`
moves it (`self.anchor_vec = self.anchor_vec.to(device)`) during forward. Under DataParallel forward
runs on replicas, so only the replicas' attribute moves and `model.module`'s stays on the CPU.
Stand-in: a Darknet with one YOLOLayer, and DataParallel's replicate/forward reduced to one
replica made the way `Module._replicate_for_data_parallel` makes it (no GPUs to scatter to here);
the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class YOLOLayer(nn.Module):
    def __init__(self, anchors, nc, stride):
        super().__init__()
        self.anchors = torch.Tensor(anchors)
        self.stride = stride
        self.na = len(anchors)
        self.nc = nc
        self.no = nc + 5
        self.nx, self.ny, self.ng = 0, 0, 0
        self.anchor_vec = self.anchors / self.stride
        self.anchor_wh = self.anchor_vec.view(1, self.na, 1, 1, 2)

    def create_grids(self, ng=(13, 13), device='cpu'):
        self.nx, self.ny = ng
        self.ng = torch.tensor(ng, dtype=torch.float)
        if self.anchor_vec.device != device:
            self.anchor_vec = self.anchor_vec.to(device)
            self.anchor_wh = self.anchor_wh.to(device)

    def forward(self, p):
        bs, _, ny, nx = p.shape
        if (self.nx, self.ny) != (nx, ny):
            self.create_grids((nx, ny), p.device)
        return p.view(bs, self.na, self.no, self.ny, self.nx).permute(0, 1, 3, 4, 2).contiguous()

class Darknet(nn.Module):
    def __init__(self, nc=2):
        super().__init__()
        self.module_list = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.LeakyReLU(0.1)),
            nn.Conv2d(16, 3 * (nc + 5), 1),
            YOLOLayer([[12, 16], [19, 36], [40, 28]], nc, stride=2),
        ])
        self.yolo_layers = [2]
        self.hyp = {'anchor_t': 4.0}

    def forward(self, x):
        for m in self.module_list:
            x = m(x)
        return [x]

def replicate(module):
    # torch.nn.parallel.replicate: every replica is a new module object sharing the tensors;
    # attributes a replica sets in forward die with it
    replica = module._replicate_for_data_parallel()
    replica._parameters = dict(module._parameters)
    for name, child in module._modules.items():
        replica._modules[name] = replicate(child)
    return replica

class DataParallel(nn.Module):
    def __init__(self, module, device_ids=None):
        super().__init__()
        self.module = module
        self.device_ids = device_ids or [0, 1]

    def forward(self, *inputs):
        return replicate(self.module)(*inputs)

def is_parallel(model):
    return type(model) in (DataParallel, nn.parallel.DataParallel, nn.parallel.DistributedDataParallel)

def build_targets(p, targets, model):
    nt = targets.shape[0]
    tcls, tbox, indices, anch = [], [], [], []
    gain = torch.ones(6, device=targets.device)
    multi_gpu = is_parallel(model)
    for i, jj in enumerate(model.module.yolo_layers if multi_gpu else model.yolo_layers):
        anchors = model.module.module_list[jj].anchor_vec if multi_gpu else model.module_list[jj].anchor_vec
        gain[2:] = torch.tensor(p[i].shape)[[3, 2, 3, 2]]
        a, t, offsets = [], targets * gain, 0
        if nt:
            na = anchors.shape[0]
            r = t[None, :, 4:6] / anchors[:, None]
            j = torch.max(r, 1. / r).max(2)[0] < model.module.hyp['anchor_t'] if multi_gpu else model.hyp['anchor_t']
            anch.append(j)
    return tcls, tbox, indices, anch

device = torch.device('meta')                # 'cuda:0'
model = Darknet().to(device)
model = DataParallel(model)                # torch.cuda.device_count() > 1
imgs = torch.rand(2, 3, 32, 32).to(device)
targets = torch.tensor([[0, 1, 0.5, 0.5, 0.2, 0.3], [1, 0, 0.3, 0.6, 0.1, 0.1]]).to(device)
'''
CELL = '''
pred = model(imgs)
tcls, tbox, indices, anchors = build_targets(pred, targets, model)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.module.module_list[2].anchor_vec"]
FIX = "namespace"
REFERENCE_FIX = '''
model.module.module_list[2].anchor_vec = model.module.module_list[2].anchor_vec.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
