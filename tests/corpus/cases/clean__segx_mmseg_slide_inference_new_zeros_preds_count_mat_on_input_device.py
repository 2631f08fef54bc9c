"""Look-alike: mmsegmentation's sliding-window inference allocates its accumulators with `inputs.new_zeros(...)` and pads each crop's logits back into place.

Source: https://github.com/open-mmlab/mmsegmentation/blob/main/mmseg/models/segmentors/encoder_decoder.py
`EncoderDecoder.slide_inference` creates `preds = inputs.new_zeros((batch_size, out_channels, h_img,
w_img))` and `count_mat = inputs.new_zeros((batch_size, 1, h_img, w_img))` - tensors made inside
the model without a `device=` argument, but `new_zeros` inherits the device and dtype of `inputs`.
Each crop `inputs[:, :, y1:y2, x1:x2]` goes through `encode_decode`, is `F.pad`-ed into `preds`,
`count_mat[:, :, y1:y2, x1:x2] += 1`, and `inference` ends with a softmax. Nothing to report.
Stand-ins: backbone and decode head as two convs, `test_cfg` as a small object; the
`assert (count_mat == 0).sum() == 0` check dropped (it reads a value, not possible on meta); the
GPU simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def resize(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    return F.interpolate(input, size, scale_factor, mode, align_corners)

class TestCfg:
    mode = 'slide'
    crop_size = (32, 32)
    stride = (24, 24)

class EncoderDecoder(nn.Module):
    def __init__(self, num_classes=19):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU())
        self.decode_head = nn.Conv2d(16, num_classes, 1)
        self.out_channels = num_classes
        self.align_corners = False
        self.test_cfg = TestCfg()

    def encode_decode(self, inputs, batch_img_metas):
        seg_logits = self.decode_head(self.backbone(inputs))
        return resize(seg_logits, size=batch_img_metas[0]['img_shape'], mode='bilinear',
                      align_corners=self.align_corners)

    def slide_inference(self, inputs, batch_img_metas):
        h_stride, w_stride = self.test_cfg.stride
        h_crop, w_crop = self.test_cfg.crop_size
        batch_size, _, h_img, w_img = inputs.size()
        out_channels = self.out_channels
        h_grids = max(h_img - h_crop + h_stride - 1, 0) // h_stride + 1
        w_grids = max(w_img - w_crop + w_stride - 1, 0) // w_stride + 1
        preds = inputs.new_zeros((batch_size, out_channels, h_img, w_img))
        count_mat = inputs.new_zeros((batch_size, 1, h_img, w_img))
        for h_idx in range(h_grids):
            for w_idx in range(w_grids):
                y1 = h_idx * h_stride
                x1 = w_idx * w_stride
                y2 = min(y1 + h_crop, h_img)
                x2 = min(x1 + w_crop, w_img)
                y1 = max(y2 - h_crop, 0)
                x1 = max(x2 - w_crop, 0)
                crop_img = inputs[:, :, y1:y2, x1:x2]
                batch_img_metas[0]['img_shape'] = crop_img.shape[2:]
                crop_seg_logit = self.encode_decode(crop_img, batch_img_metas)
                preds += F.pad(crop_seg_logit,
                               (int(x1), int(preds.shape[3] - x2), int(y1), int(preds.shape[2] - y2)))
                count_mat[:, :, y1:y2, x1:x2] += 1
        seg_logits = preds / count_mat
        return seg_logits

    def inference(self, inputs, batch_img_metas):
        assert self.test_cfg.mode in ['slide', 'whole']
        seg_logit = self.slide_inference(inputs, batch_img_metas)
        return F.softmax(seg_logit, dim=1)

device = torch.device('meta')                      # init_model(config, checkpoint, device='cuda:0')
model = EncoderDecoder(num_classes=19).to(device).eval()
# what SegDataPreProcessor returns for one 64x96 image: normalized, stacked, on the model's device
inputs = torch.randn(1, 3, 64, 96, device=device)
batch_img_metas = [dict(ori_shape=(64, 96), img_shape=(64, 96), pad_shape=(64, 96), padding_size=[0, 0, 0, 0])]
'''
CELL = '''
with torch.no_grad():
    seg_logits = model.inference(inputs, batch_img_metas)
    pred_sem_seg = seg_logits.argmax(dim=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
