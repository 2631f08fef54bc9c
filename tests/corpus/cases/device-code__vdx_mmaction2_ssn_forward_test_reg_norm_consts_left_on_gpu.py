"""mmaction2 SSN testing: the STPP head returns its regression scores on the CPU, `forward_test` rescales them with the GPU `reg_norm_consts`.

Source: https://github.com/open-mmlab/mmaction2/issues/1349
"ssn_head.py device unaligned": an SSN trained fine on a new dataset, but `mim test ... --gpus 1 --eval
mAP` of the checkpoint raised a device error. `STPPTest.forward` builds `out_activity_scores`,
`out_complete_scores` and `out_reg_scores` with `torch.zeros(...)` (no device) and fills them with
`raw_scale_score.detach().cpu()`, so `bbox_preds` comes back on the CPU, while `reg_norm_consts` was
scattered to the GPU with the rest of the batch; `bbox_preds[:, :, 0] * reg_norm_consts[1, 0] + ...`
mixes them. The reporter's fix (PR #1355, "Update ssn.py") moves `reg_norm_consts` to the CPU in
`SSN.forward_test` before the rescaling. Stand-in: SSN / SSNHead / STPPTest at toy size with one
pyramid stage; the reorganised `test_fc` is built in `__init__`; proposal ticks and scale factors are
passed as Python numbers and the fake cuda tensors are sliced with `narrow`/`select` (fake cuda
tensors cannot be indexed here); the final `.numpy()` conversions are left out.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn


class STPPTest(nn.Module):
    def __init__(self, num_classes=3, use_regression=True):
        super().__init__()
        self.activity_score_len = num_classes + 1
        self.complete_score_len = num_classes
        self.reg_score_len = num_classes * 2
        self.use_regression = use_regression

    @staticmethod
    def _pyramids_pooling(out_scores, index, raw_scores, ticks, scale_factors, score_len):
        # one stage of the structured temporal pyramid: the whole proposal
        tick_left, tick_right = ticks[1], max(ticks[1] + 1, ticks[2])
        raw_score = raw_scores.narrow(0, tick_left, tick_right - tick_left)
        raw_scale_score = raw_score.mean(dim=0) * scale_factors[0]
        out_scores[index, :] += raw_scale_score.detach().cpu()
        return out_scores

    def forward(self, x, proposal_ticks, scale_factors):
        num_ticks = len(proposal_ticks)
        out_activity_scores = torch.zeros((num_ticks, self.activity_score_len), dtype=x.dtype)
        raw_activity_scores = x.narrow(1, 0, self.activity_score_len)
        out_complete_scores = torch.zeros((num_ticks, self.complete_score_len), dtype=x.dtype)
        raw_complete_scores = x.narrow(1, self.activity_score_len, self.complete_score_len)
        if self.use_regression:
            out_reg_scores = torch.zeros((num_ticks, self.reg_score_len), dtype=x.dtype)
            raw_reg_scores = x.narrow(1, self.activity_score_len + self.complete_score_len, self.reg_score_len)
        else:
            out_reg_scores = None
        for i in range(num_ticks):
            ticks = proposal_ticks[i]
            out_activity_scores[i, :] = raw_activity_scores.narrow(
                0, ticks[1], max(ticks[1] + 1, ticks[2]) - ticks[1]).mean(dim=0)
            out_complete_scores = self._pyramids_pooling(
                out_complete_scores, i, raw_complete_scores, ticks, scale_factors[i], self.complete_score_len)
            if self.use_regression:
                out_reg_scores = self._pyramids_pooling(
                    out_reg_scores, i, raw_reg_scores, ticks, scale_factors[i], self.reg_score_len)
        return out_activity_scores, out_complete_scores, out_reg_scores


class SSNHead(nn.Module):
    def __init__(self, in_channels=32, num_classes=3):
        super().__init__()
        self.num_classes = num_classes
        self.consensus = STPPTest(num_classes=num_classes)
        # what prepare_test_fc() reorganises activity_fc / completeness_fc / regressor_fc into
        self.test_fc = nn.Linear(in_channels, (num_classes + 1) + num_classes + num_classes * 2)

    def forward(self, x, test_mode=False):
        x, proposal_tick_list, scale_factor_list = x
        test_scores = self.test_fc(x)
        (activity_scores, completeness_scores,
         bbox_preds) = self.consensus(test_scores, proposal_tick_list, scale_factor_list)
        return (test_scores, activity_scores, completeness_scores, bbox_preds)


class SSN(nn.Module):
    def __init__(self, in_channels=3):
        super().__init__()
        self.in_channels = in_channels
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.cls_head = SSNHead(in_channels=32, num_classes=3)

    def extract_feat(self, imgs):
        return self.backbone(imgs)

    def forward(self, imgs, relative_proposal_list=None, scale_factor_list=None,
                proposal_tick_list=None, reg_norm_consts=None, return_loss=False, **kwargs):
        return self.forward_test(imgs, relative_proposal_list, scale_factor_list,
                                 proposal_tick_list, reg_norm_consts, **kwargs)

    def forward_test(self, imgs, relative_proposal_list, scale_factor_list,
                     proposal_tick_list, reg_norm_consts, **kwargs):
        num_crops = imgs.shape[0]
        imgs = imgs.reshape((num_crops, -1, self.in_channels) + imgs.shape[3:])
        x = self.extract_feat(imgs.view((-1, ) + imgs.shape[2:]))
        x = self.pool(x)
        # Merge crop to save memory.
        output = x.reshape((num_crops, x.size(0) // num_crops, -1)).mean(dim=0)

        relative_proposal_list = relative_proposal_list.squeeze(0)
        reg_norm_consts = reg_norm_consts.squeeze(0)

        (output, activity_scores, completeness_scores,
         bbox_preds) = self.cls_head(
             (output, proposal_tick_list, scale_factor_list), test_mode=True)

        relative_proposal_list = relative_proposal_list.cpu()
        activity_scores = activity_scores.cpu()
        completeness_scores = completeness_scores.cpu()
        if bbox_preds is not None:
            bbox_preds = bbox_preds.view(-1, self.cls_head.num_classes, 2)
            bbox_preds[:, :, 0] = (
                bbox_preds[:, :, 0] * reg_norm_consts.select(0, 1).select(0, 0) +
                reg_norm_consts.select(0, 0).select(0, 0))
            bbox_preds[:, :, 1] = (
                bbox_preds[:, :, 1] * reg_norm_consts.select(0, 1).select(0, 1) +
                reg_norm_consts.select(0, 0).select(0, 1))
            bbox_preds = bbox_preds.cpu()
        return [dict(relative_proposal_list=relative_proposal_list,
                     activity_scores=activity_scores,
                     completeness_scores=completeness_scores,
                     bbox_preds=bbox_preds)]


device = torch.device("cuda:0")
model = SSN().to(device)
model.eval()

# one test batch after MMDataParallel scattered it to the GPU: 1 crop x 8 ticks of 3 x 16 x 16 frames
data = dict(
    imgs=torch.randn(1, 8, 3, 16, 16, device=device),
    relative_proposal_list=torch.rand(1, 4, 2, device=device),
    reg_norm_consts=torch.tensor([[[0.0, 0.1], [1.0, 0.5]]]).to(device),
)
proposal_tick_list = [[0, 1, 3, 4], [1, 2, 5, 6], [2, 3, 6, 7], [0, 2, 4, 6]]
scale_factor_list = [[1.0, 1.0]] * 4
'''
CELL = '''
with torch.no_grad():
    result = model(return_loss=False, proposal_tick_list=proposal_tick_list,
                   scale_factor_list=scale_factor_list, **data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        completeness_scores = completeness_scores.cpu()\n",
    "        completeness_scores = completeness_scores.cpu()\n        reg_norm_consts = reg_norm_consts.cpu()\n",
)
CLEAN = False
