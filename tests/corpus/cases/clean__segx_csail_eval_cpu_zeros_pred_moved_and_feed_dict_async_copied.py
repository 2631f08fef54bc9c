"""Look-alike: CSAIL semantic-segmentation eval.py builds the multi-scale score buffer on the CPU, moves it to the GPU, copies each feed_dict there, and reads the argmax back on the CPU.

Source: https://github.com/CSAILVision/semantic-segmentation-pytorch/blob/master/eval.py
`evaluate()` keeps `batch_data` (from user_scattered_collate) on the CPU, creates
`pred = torch.zeros(1, num_class, H, W)` on the CPU and sends it with `.cuda()`, then for each test
scale copies a fresh `feed_dict` to the GPU with `async_copy_to(feed_dict, gpu_id)` before the
forward pass, accumulates on the GPU and takes `torch.max(pred.data.cpu(), dim=1)`. Every CPU
tensor here is either moved before use or meant to stay on the host. Nothing to report.
Stand-ins: lib.nn.async_copy_to, a conv encoder and C1 decoder inside SegmentationModule (inference
branch); `as_numpy` on the CPU argmax dropped (simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
import collections

def async_copy_to(obj, dev, main_stream=None):
    if torch.is_tensor(obj):
        return obj.to(f"cuda:{dev}", non_blocking=True)    # obj.cuda(dev, non_blocking=True)
    elif isinstance(obj, collections.abc.Mapping):
        return {k: async_copy_to(o, dev, main_stream) for k, o in obj.items()}
    elif isinstance(obj, collections.abc.Sequence) and not isinstance(obj, str):
        return [async_copy_to(o, dev, main_stream) for o in obj]
    else:
        return obj

class C1(nn.Module):
    def __init__(self, num_class=6, fc_dim=32, use_softmax=True):
        super().__init__()
        self.use_softmax = use_softmax
        self.cbr = nn.Sequential(nn.Conv2d(fc_dim, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.conv_last = nn.Conv2d(16, num_class, 1)

    def forward(self, conv_out, segSize=None):
        x = self.conv_last(self.cbr(conv_out))
        if self.use_softmax:
            x = F.interpolate(x, size=segSize, mode='bilinear', align_corners=False)
            return F.softmax(x, dim=1)
        return F.log_softmax(x, dim=1)

class SegmentationModule(nn.Module):
    def __init__(self, net_enc, net_dec, crit):
        super().__init__()
        self.encoder = net_enc
        self.decoder = net_dec
        self.crit = crit

    def forward(self, feed_dict, *, segSize=None):
        return self.decoder(self.encoder(feed_dict['img_data']), segSize=segSize)

net_encoder = nn.Sequential(nn.Conv2d(3, 32, 3, stride=4, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True))
net_decoder = C1(num_class=6, fc_dim=32, use_softmax=True)
crit = nn.NLLLoss(ignore_index=-1)
segmentation_module = SegmentationModule(net_encoder, net_decoder, crit)
segmentation_module.to("cuda:0")                    # segmentation_module.cuda()
segmentation_module.eval()

class Args: num_class = 6; imgSize = [48, 64]; gpu_id = 0
args = Args()

# one ValDataset item after user_scattered_collate: multi-scale images, CPU tensors
batch_data = {
    'img_ori': None,
    'img_data': [torch.randn(1, 3, 48, 64), torch.randn(1, 3, 64, 80)],
    'seg_label': torch.randint(-1, 6, (1, 40, 56)),
    'info': 'ADE_val_00000001.jpg',
}
'''
CELL = '''
seg_label = batch_data['seg_label'][0]
img_resized_list = batch_data['img_data']
with torch.no_grad():
    segSize = (seg_label.shape[0], seg_label.shape[1])
    pred = torch.zeros(1, args.num_class, segSize[0], segSize[1])
    pred = pred.to("cuda:0")                          # Variable(pred).cuda()
    for img in img_resized_list:
        feed_dict = batch_data.copy()
        feed_dict['img_data'] = img
        del feed_dict['img_ori']
        del feed_dict['info']
        feed_dict = async_copy_to(feed_dict, args.gpu_id)
        pred_tmp = segmentation_module(feed_dict, segSize=segSize)
        pred = pred + pred_tmp / len(args.imgSize)
    _, preds = torch.max(pred.data.cpu(), dim=1)
    preds = preds.squeeze(0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
