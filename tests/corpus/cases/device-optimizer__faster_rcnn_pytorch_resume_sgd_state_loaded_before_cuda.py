"""jwyang/faster-rcnn.pytorch: resuming restores the SGD momentum buffers on the CPU, then `fasterRCNN.cuda()` moves only the model.

Source: https://github.com/jwyang/faster-rcnn.pytorch/issues/475
"Attempted to restart training on a COCO dataset after 2 epochs... failed": `trainval_net.py ... --cuda
--r true --checksession 1 --checkepoch 2 --checkpoint 234531` stopped at the first `optimizer.step()` in
`buf.mul_(momentum).add_(1 - dampening, d_p)` with "expected type torch.FloatTensor but got
torch.cuda.FloatTensor". The script builds the SGD optimizer and, under `if args.resume:`, loads
`checkpoint['optimizer']` while the model is still on the CPU, so `load_state_dict` puts the momentum
buffers there; `fasterRCNN.cuda()` comes afterwards (PR 327 moved it before loading). Stand-in: a
two-stage-shaped model with per-parameter groups (the script's double-bias lr), the checkpoint an earlier
session saved, and one training step with `loss.backward()` replaced by setting the grads (no autograd
on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class vgg16(nn.Module):                                        # faster_rcnn vgg16(imdb.classes, ...) stand-in
    def __init__(self, n_classes=21):
        super().__init__()
        self.RCNN_base = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.RCNN_rpn = nn.Conv2d(16, 18, 1)
        self.RCNN_cls_score = nn.Linear(16, n_classes)
        self.RCNN_bbox_pred = nn.Linear(16, 4 * n_classes)

    def forward(self, im_data):
        base_feat = self.RCNN_base(im_data)
        rpn_cls = self.RCNN_rpn(base_feat)
        pooled = base_feat.mean(dim=(2, 3))
        return rpn_cls, self.RCNN_cls_score(pooled), self.RCNN_bbox_pred(pooled)

args = SimpleNamespace(cuda=True, resume=True, optimizer="sgd", mGPUs=False, session=1, start_epoch=1)
cfg = SimpleNamespace(TRAIN=SimpleNamespace(LEARNING_RATE=0.001, MOMENTUM=0.9, DOUBLE_BIAS=True,
                                            BIAS_DECAY=False, WEIGHT_DECAY=0.0005))

def make_optimizer(fasterRCNN, lr):
    params = []
    for key, value in dict(fasterRCNN.named_parameters()).items():
        if value.requires_grad:
            if 'bias' in key:
                params += [{'params': [value], 'lr': lr * (cfg.TRAIN.DOUBLE_BIAS + 1),
                            'weight_decay': cfg.TRAIN.BIAS_DECAY and cfg.TRAIN.WEIGHT_DECAY or 0}]
            else:
                params += [{'params': [value], 'lr': lr, 'weight_decay': cfg.TRAIN.WEIGHT_DECAY}]
    return torch.optim.SGD(params, momentum=cfg.TRAIN.MOMENTUM)

# models/vgg16/coco/faster_rcnn_1_2_234531.pth, as the earlier session saved it
_net = vgg16()
_opt = make_optimizer(_net, cfg.TRAIN.LEARNING_RATE)
for _p in _net.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
checkpoint = {'session': 1, 'epoch': 2, 'model': _net.state_dict(), 'optimizer': _opt.state_dict()}
del _net, _opt

fasterRCNN = vgg16()
lr = cfg.TRAIN.LEARNING_RATE
optimizer = make_optimizer(fasterRCNN, lr)
if args.resume:
    args.session = checkpoint['session']
    args.start_epoch = checkpoint['epoch']
    fasterRCNN.load_state_dict(checkpoint['model'])
    optimizer.load_state_dict(checkpoint['optimizer'])
    lr = optimizer.param_groups[0]['lr']
if args.cuda:
    fasterRCNN.cuda() if torch.cuda.is_available() else fasterRCNN.to("cuda:0")

im_data = torch.randn(1, 3, 32, 32).to("cuda:0")
'''
CELL = '''
fasterRCNN.train()
rpn_cls, cls_score, bbox_pred = fasterRCNN(im_data)
optimizer.zero_grad()
for p in fasterRCNN.parameters():                 # stand-in for loss.backward()
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
            state[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
