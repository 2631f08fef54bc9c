"""Dice loss `make_one_hot`: the one-hot buffer goes to the default GPU while the labels are on cuda:1.

Source: https://github.com/yassouali/pytorch-segmentation/issues/80
"one_hot cuda numbering error": training with the repository's Dice loss on a second GPU failed in
`make_one_hot` at `one_hot.scatter_(1, labels.data, 1)` with "arguments are located on different
GPUs": `one_hot = torch.FloatTensor(...).zero_().cuda()` lands on the current device (cuda:0)
while the model, output and labels are on cuda:1. The reporter's fix, accepted by the maintainer:
`.cuda(device=labels.device)`. Stand-in: the loss as in the repository (`.cuda()` written as
`.to("cuda:0")`, the current device), a one-layer segmentation head on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def make_one_hot(labels, classes):
    one_hot = torch.FloatTensor(labels.size()[0], classes, labels.size()[2], labels.size()[3]).zero_().to("cuda:0")  # .cuda()
    target = one_hot.scatter_(1, labels.data, 1)
    return target

class DiceLoss(nn.Module):
    def __init__(self, smooth=1., ignore_index=255):
        super(DiceLoss, self).__init__()
        self.ignore_index = ignore_index
        self.smooth = smooth

    def forward(self, output, target):
        target = make_one_hot(target.unsqueeze(dim=1), classes=output.size()[1])
        output = F.softmax(output, dim=1)
        output_flat = output.contiguous().view(-1)
        target_flat = target.contiguous().view(-1)
        intersection = (output_flat * target_flat).sum()
        loss = 1 - ((2. * intersection + self.smooth) /
                    (output_flat.sum() + target_flat.sum() + self.smooth))
        return loss

device = torch.device("cuda:1")
model = nn.Conv2d(3, 4, 1).to(device)
criterion = DiceLoss()
img = torch.randn(2, 3, 16, 16, device=device)
aff_cls = torch.randint(0, 4, (2, 16, 16), device=device)
'''
CELL = '''
output = model(img)
loss = criterion(output, aff_cls.long())
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '.zero_().to("cuda:0")  # .cuda()',
    '.zero_().to(labels.device)  # .cuda(device=labels.device)',
)
CLEAN = False
