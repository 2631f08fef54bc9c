"""RAFT `sequence_loss`: the KITTI validity mask arrives as float, is turned into a bool mask, and multiplies the float L1 loss (`valid[:, None] * i_loss`); type promotion makes that a float product.

Source: https://github.com/princeton-vl/RAFT/blob/master/train.py
`sequence_loss(flow_preds, flow_gt, valid, gamma)` computes
`valid = (valid >= 0.5) & (mag < max_flow)` (a bool tensor) and then
`flow_loss += i_weight * (valid[:, None] * i_loss).mean()`, a bool x float32 product, and finally
indexes the EPE with the same bool mask (`epe.view(-1)[valid.view(-1)]`) for the metrics. The
dataloader hands `valid` over as float32 (KITTI's sparse-flow mask). Look-alike: a bool mask
multiplied into a float loss and a float mask compared into a bool, which promotes without error.
Stand-in: `sequence_loss` as in train.py, a two-conv stand-in for RAFT returning a list of flow
predictions, one KITTI-shaped batch on the CPU (the dtypes are what matters here).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

MAX_FLOW = 400

def sequence_loss(flow_preds, flow_gt, valid, gamma=0.8, max_flow=MAX_FLOW):
    """ Loss function defined over sequence of flow predictions """

    n_predictions = len(flow_preds)
    flow_loss = 0.0

    # exlude invalid pixels and extremely large diplacements
    mag = torch.sum(flow_gt**2, dim=1).sqrt()
    valid = (valid >= 0.5) & (mag < max_flow)

    for i in range(n_predictions):
        i_weight = gamma**(n_predictions - i - 1)
        i_loss = (flow_preds[i] - flow_gt).abs()
        flow_loss += i_weight * (valid[:, None] * i_loss).mean()

    epe = torch.sum((flow_preds[-1] - flow_gt)**2, dim=1).sqrt()
    epe = epe.view(-1)[valid.view(-1)]

    metrics = {
        'epe': epe.mean().item(),
        '1px': (epe < 1).float().mean().item(),
        '3px': (epe < 3).float().mean().item(),
        '5px': (epe < 5).float().mean().item(),
    }

    return flow_loss, metrics

class RAFT(nn.Module):
    # stand-in: two convs and a fixed number of "refinement" outputs
    def __init__(self):
        super().__init__()
        self.fnet = nn.Conv2d(6, 16, 3, padding=1)
        self.head = nn.Conv2d(16, 2, 3, padding=1)

    def forward(self, image1, image2, iters=12):
        flow = self.head(torch.relu(self.fnet(torch.cat([image1, image2], 1))))
        return [flow * (i + 1) / iters for i in range(iters)]

class Args:
    iters = 12
    gamma = 0.8

args = Args()
model = RAFT()
model.train()
image1 = torch.rand(2, 3, 48, 96) * 255
image2 = torch.rand(2, 3, 48, 96) * 255
flow = torch.randn(2, 2, 48, 96) * 5
valid = (torch.rand(2, 48, 96) > 0.7).float()      # KITTI sparse ground truth: float 0/1 mask
'''
CELL = '''
flow_predictions = model(image1, image2, iters=args.iters)
loss, metrics = sequence_loss(flow_predictions, flow, valid, args.gamma)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
