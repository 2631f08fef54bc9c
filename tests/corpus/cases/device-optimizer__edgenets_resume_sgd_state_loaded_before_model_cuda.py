"""EdgeNets `train_segmentation.py --resume`: the SGD state is loaded while the model is still on the CPU, then only the model goes to the GPU.

Source: https://github.com/sacmehta/EdgeNets/issues/25
Resuming ESPNetv2 segmentation training from a checkpoint failed at the first `optimizer.step()`
with "expected device cpu but got device cuda:0". The script builds `optim.SGD` (two param groups,
momentum) on the CPU model, does `torch.load(args.resume, map_location=cpu)`,
`model.load_state_dict(...)` and `optimizer.load_state_dict(...)` (which puts the momentum buffers
on the parameters' device: CPU), and only afterwards wraps `DataParallel(model)` and calls
`model.cuda()`. The user's fix: `model.cuda()` before loading the checkpoint (fake cuda cannot
copy a state_dict into cuda parameters, so the reference fix moves the loaded state instead). Reduced: a two-part
conv net without BatchNorm for espnetv2_seg, the checkpoint as the dict `torch.load` returns, one training batch with the
mIOU/AverageMeter bookkeeping dropped and `loss.backward()` replaced by setting `.grad` (fake cuda
tensors cannot run autograd); DataParallel is a pass-through on a machine without CUDA.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
import torch.nn as nn
import torch.optim as optim
from torch.nn.parallel import DataParallel

class ESPNetv2Seg(nn.Module):                      # espnetv2_seg(args) stand-in
    def __init__(self, classes=21):
        super().__init__()
        self.base_net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.PReLU(16))
        self.segment = nn.Conv2d(16, classes, 1)
    def get_basenet_params(self):
        return self.base_net.parameters()
    def get_segment_params(self):
        return self.segment.parameters()
    def forward(self, x):
        return self.segment(self.base_net(x))

def build(lr=0.009, lr_mult=10):
    model = ESPNetv2Seg()
    train_params = [{'params': model.get_basenet_params(), 'lr': lr},
                    {'params': model.get_segment_params(), 'lr': lr * lr_mult}]
    return model, optim.SGD(train_params, momentum=0.9, weight_decay=4e-5)

# the checkpoint an earlier run saved (torch.load(args.resume, map_location=cpu) returns this)
_m, _o = build()
for _p in _m.parameters():
    _p.grad = torch.ones_like(_p)
_o.step()
checkpoint = {'epoch': 5, 'best_miou': 31.2, 'state_dict': _m.state_dict(), 'optimizer': _o.state_dict()}
del _m, _o

num_gpus = 1
device = 'cuda:0'                                  # 'cuda' if num_gpus > 0 else 'cpu'
model, optimizer = build()

start_epoch = checkpoint['epoch']
best_miou = checkpoint['best_miou']
model.load_state_dict(checkpoint['state_dict'])
optimizer.load_state_dict(checkpoint['optimizer'])

class_wts = torch.ones(21)
criterion = nn.CrossEntropyLoss(weight=class_wts.to(device), ignore_index=255)   # SegmentationLoss
if num_gpus >= 1:
    model = DataParallel(model)
    model = model.cuda() if torch.cuda.is_available() else model.to(device)
    criterion = criterion.to(device)

train_loader = [(torch.randn(4, 3, 32, 32), torch.randint(0, 21, (4, 32, 32)))]
'''
CELL = '''
model.train()
for i, (inputs, target) in enumerate(train_loader):
    inputs = inputs.to(device=device)
    target = target.to(device=device)
    outputs = model(inputs)
    loss = criterion(outputs, target)
    optimizer.zero_grad()
    for p in model.parameters():                   # stand-in for loss.backward()
        p.grad = torch.ones_like(p)
    optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in optimizer.state.values():
    for k, v in state.items():
        if torch.is_tensor(v):
            state[k] = v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
