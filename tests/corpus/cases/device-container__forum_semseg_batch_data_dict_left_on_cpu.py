"""CSAIL semantic-segmentation training loop: the `batch_data` dict's tensors stay on the CPU.

Source: https://github.com/CSAILVision/semantic-segmentation-pytorch/issues/58
"I have to do the following to process the batch_data to get the training going:
`batch_data = next(iterator)[0]; for k in batch_data.keys(): batch_data[k] = batch_data[k].cuda()`
... Without these fixes, the batch_data will be a length-one list and data in the dictionary will
be on CPU instead of GPU (which causes error at conv1 layer)." The repo relies on its
UserScatteredDataParallel wrapper to scatter the per-GPU dicts; called directly, the
SegmentationModule gets `img_data` and `seg_label` as CPU tensors while its encoder/decoder are on
the GPU. Stand-in: a small conv+BN encoder and a C1-style decoder inside the repo's
SegmentationModule (NLLLoss(ignore_index=-1) and pixel_acc as in models.py); the GPU is meta.
"""

SIM = "meta"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class SegmentationModuleBase(nn.Module):
    def __init__(self):
        super(SegmentationModuleBase, self).__init__()

    def pixel_acc(self, pred, label):
        _, preds = torch.max(pred, dim=1)
        valid = (label >= 0).long()
        acc_sum = torch.sum(valid * (preds == label).long())
        pixel_sum = torch.sum(valid)
        acc = acc_sum.float() / (pixel_sum.float() + 1e-10)
        return acc

class SegmentationModule(SegmentationModuleBase):
    def __init__(self, net_enc, net_dec, crit):
        super(SegmentationModule, self).__init__()
        self.encoder = net_enc
        self.decoder = net_dec
        self.crit = crit

    def forward(self, feed_dict, segSize=None):
        pred = self.decoder(self.encoder(feed_dict['img_data']))
        loss = self.crit(pred, feed_dict['seg_label'])
        acc = self.pixel_acc(pred, feed_dict['seg_label'])
        return loss, acc

class C1(nn.Module):
    def __init__(self, num_class=5, fc_dim=32):
        super().__init__()
        self.cbr = nn.Sequential(nn.Conv2d(fc_dim, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.conv_last = nn.Conv2d(16, num_class, 1)

    def forward(self, conv_out):
        x = self.conv_last(self.cbr(conv_out))
        x = F.interpolate(x, scale_factor=4, mode='bilinear', align_corners=False)
        return F.log_softmax(x, dim=1)

net_encoder = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
                            nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True))
net_decoder = C1(num_class=5, fc_dim=32)
crit = nn.NLLLoss(ignore_index=-1)
segmentation_module = SegmentationModule(net_encoder, net_decoder, crit)
segmentation_module.to("meta")                    # segmentation_module.cuda()
optimizers = (torch.optim.SGD(net_encoder.parameters(), lr=0.02, momentum=0.9),
              torch.optim.SGD(net_decoder.parameters(), lr=0.02, momentum=0.9))

# user_scattered_collate: a list with one dict per GPU
iterator = iter([[{'img_data': torch.randn(2, 3, 32, 32),
                   'seg_label': torch.randint(-1, 5, (2, 32, 32))}]])
batch_data = next(iterator)[0]
'''
CELL = '''
segmentation_module.zero_grad()
loss, acc = segmentation_module(batch_data)
loss = loss.mean()
acc = acc.mean()
loss.backward()
for optimizer in optimizers:
    optimizer.step()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "is not on the expected device",
                "should be the same")
CULPRITS = ["batch_data['img_data']", "batch_data['seg_label']"]
FIX = "namespace"
REFERENCE_FIX = '''
for k in batch_data.keys():
    batch_data[k] = batch_data[k].to("meta")      # .cuda()
'''
REFERENCE_EDIT = None
CLEAN = False
