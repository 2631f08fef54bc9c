"""Look-alike: SSL4MIS mean teacher: the teacher's input noise is `torch.randn_like` of the GPU slice, and the EMA update is in place.

Source: https://github.com/HiLab-git/SSL4MIS/blob/master/code/train_mean_teacher_2D.py
The loop moves `volume_batch, label_batch` with `.cuda()`, slices the unlabeled part
`volume_batch[args.labeled_bs:]`, adds `torch.clamp(torch.randn_like(unlabeled_volume_batch) * 0.1,
-0.2, 0.2)` (created on the slice's device) for the EMA teacher, mixes a Python-float consistency
weight into the loss, and `update_ema_variables` blends the teacher's parameters in place
(`ema_param.data.mul_(alpha).add_(1 - alpha, param.data)`). Student and teacher were both built by
`create_model` on the GPU, the teacher with detached parameters: nothing to report.
Stand-in: a tiny segmentation net, cross-entropy only (the repo adds a Dice term), `ramps.sigmoid_rampup`
inlined; the meta device plays the GPU (autograd is needed).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import types
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

args = types.SimpleNamespace(labeled_bs=2, num_classes=4, consistency=0.1, consistency_rampup=200.0, ema_decay=0.99, base_lr=0.01)

def sigmoid_rampup(current, rampup_length):
    if rampup_length == 0:
        return 1.0
    current = np.clip(current, 0.0, rampup_length)
    phase = 1.0 - current / rampup_length
    return float(np.exp(-5.0 * phase * phase))

def get_current_consistency_weight(epoch):
    return args.consistency * sigmoid_rampup(epoch, args.consistency_rampup)

def update_ema_variables(model, ema_model, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(1 - alpha, param.data)

def create_model(ema=False):
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, args.num_classes, 1))
    model = model.to("meta")      # net_factory(...) returns the net .cuda()
    if ema:
        for param in model.parameters():
            param.detach_()
    return model

model = create_model()
ema_model = create_model(ema=True)
optimizer = torch.optim.SGD(model.parameters(), lr=args.base_lr, momentum=0.9, weight_decay=0.0001)
ce_loss = nn.CrossEntropyLoss()
model.train()
sampled_batch = {"image": torch.randn(4, 1, 16, 16), "label": torch.randint(0, 4, (4, 16, 16))}
iter_num = 300
'''
CELL = '''
volume_batch, label_batch = sampled_batch['image'], sampled_batch['label']
volume_batch, label_batch = volume_batch.to("meta"), label_batch.to("meta")   # .cuda(), .cuda()
unlabeled_volume_batch = volume_batch[args.labeled_bs:]

noise = torch.clamp(torch.randn_like(unlabeled_volume_batch) * 0.1, -0.2, 0.2)
ema_inputs = unlabeled_volume_batch + noise

outputs = model(volume_batch)
outputs_soft = torch.softmax(outputs, dim=1)
with torch.no_grad():
    ema_output = ema_model(ema_inputs)
    ema_output_soft = torch.softmax(ema_output, dim=1)

supervised_loss = ce_loss(outputs[:args.labeled_bs], label_batch[:args.labeled_bs].long())
consistency_weight = get_current_consistency_weight(iter_num//150)
consistency_loss = torch.mean((outputs_soft[args.labeled_bs:]-ema_output_soft)**2)
loss = supervised_loss + consistency_weight * consistency_loss
optimizer.zero_grad()
loss.backward()
optimizer.step()
update_ema_variables(model, ema_model, args.ema_decay, iter_num)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
