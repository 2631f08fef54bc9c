"""PathML HoVer-Net training: `dice_loss` builds its one-hot table with `torch.eye(num_classes)` on the CPU and indexes it with the CUDA nucleus mask.

Source: https://github.com/Dana-Farber-AIOS/pathml/issues/341
Training HoVer-Net on PanNuke with the pathml example (model wrapped in DataParallel, data sent to
the GPU), the loss raised "RuntimeError: indices should be either on cpu or on the same device as the
indexed tensor (cpu)" from `loss_hovernet` -> `_dice_loss_np_head` -> `dice_loss`, whose
`true_1_hot = torch.eye(num_classes)[true.squeeze(1)]` makes the identity on the CPU and indexes it
with the GPU mask (allowed by PyTorch before 1.13). The workaround in the thread creates the identity
on the mask's device. Stand-ins: HoVerNet by three conv heads, the loss reduced to the NP-branch dice
and CE terms and the HV MSE term; the table lookup is written as `index_select` and the mask's
channel pick as `select`, `.type(logits.type())` as `.type_as(logits)` (same devices), one
mini-batch without `backward`.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def dice_loss(true, logits, eps=1e-3):
    """pathml.ml.utils.dice_loss"""
    assert true.dtype == torch.long, f"Input 'true' is of type {true.type}. It should be a long."
    num_classes = logits.shape[1]
    idx = true.squeeze(1)
    true_1_hot = torch.eye(num_classes).index_select(0, idx.reshape(-1)).reshape(*idx.shape, num_classes)
    true_1_hot = true_1_hot.permute(0, 3, 1, 2).float()
    probas = F.softmax(logits, dim=1)
    true_1_hot = true_1_hot.type_as(logits)               # .type(logits.type())
    dims = (0,) + tuple(range(2, true.ndimension()))
    intersection = torch.sum(probas * true_1_hot, dims)
    cardinality = torch.sum(probas + true_1_hot, dims)
    loss = (2.0 * intersection / (cardinality + eps)).mean()
    return 1 - loss

def _convert_multiclass_mask_to_binary(mask):
    """last channel of a PanNuke mask is background: nucleus = not background"""
    return (mask.select(1, -1) == 0).long()

def _dice_loss_np_head(np_out, true_mask, epsilon=1e-3):
    preds = np_out
    true_mask = _convert_multiclass_mask_to_binary(true_mask)
    true_mask = true_mask.type(torch.long)
    return dice_loss(logits=preds, true=true_mask, eps=epsilon)

def _ce_loss_np_head(np_out, true_mask):
    truth = _convert_multiclass_mask_to_binary(true_mask).type(torch.long)
    return nn.CrossEntropyLoss()(np_out, truth)

def loss_hovernet(outputs, ground_truth, n_classes=None):
    true_mask, true_hv = ground_truth
    np_out, hv, nc = outputs
    np_loss_dice = _dice_loss_np_head(np_out, true_mask)
    np_loss_ce = _ce_loss_np_head(np_out, true_mask)
    hv_loss_mse = F.mse_loss(hv, true_hv)
    return np_loss_dice + np_loss_ce + hv_loss_mse

class HoVerNet(nn.Module):
    def __init__(self, n_classes=None):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.np_branch = nn.Conv2d(16, 2, 1)
        self.hv_branch = nn.Conv2d(16, 2, 1)
        self.nc_branch = nn.Conv2d(16, n_classes, 1)

    def forward(self, inputs):
        f = self.encoder(inputs)
        return [self.np_branch(f), self.hv_branch(f), self.nc_branch(f)]

device = torch.device("cuda:0")
n_classes_pannuke = 6
hovernet = HoVerNet(n_classes=n_classes_pannuke)
hovernet = torch.nn.DataParallel(hovernet)
opt = torch.optim.Adam(hovernet.parameters(), lr=1e-4)
hovernet.to(device)

# PanNuke mini-batch: image, 6-channel mask (last = background), hv map, tissue type
masks_cpu = torch.zeros(2, 6, 32, 32)
masks_cpu[:, 5] = (torch.rand(2, 32, 32) > 0.3).float()
train_dataloader = [(torch.rand(2, 3, 32, 32), masks_cpu, torch.randn(2, 2, 32, 32), ["Breast", "Colon"])]
'''
CELL = '''
hovernet.train()
minibatch_train_losses = []
for data in train_dataloader:
    images = data[0].float().to(device)
    masks = data[1].to(device)
    hv = data[2].float().to(device)
    tissue_type = data[3]
    outputs = hovernet(images)
    loss = loss_hovernet(outputs=outputs, ground_truth=[masks, hv], n_classes=6)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "indices should be either on cpu or on the same device as the indexed tensor")
CULPRITS = ["masks"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("true_1_hot = torch.eye(num_classes).index_select(",
                  "true_1_hot = torch.eye(num_classes, device=true.device).index_select(")
CLEAN = False
