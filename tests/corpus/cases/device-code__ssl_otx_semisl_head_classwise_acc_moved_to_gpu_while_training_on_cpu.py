"""OTX Semi-SL classification: the FixMatch-style head puts its class-wise thresholds on the GPU whenever one exists, so CPU training crashes.

Source: https://github.com/open-edge-platform/geti/pull/2283
"Fix incorrect matching of device in semisl_head": "CPU training is not working in Semi-SL".
The maintainers confirmed the root cause in the thread: training runs on the CPU while
`torch.cuda.is_available()` returns True, and `SemiClsHead.__init__` did `self.classwise_acc =
torch.ones((num_classes,)) * min_threshold; if torch.cuda.is_available(): self.classwise_acc =
self.classwise_acc.cuda()`. The fix removes the `cuda()` lines from semisl_cls_head. (The PR gives no
traceback; the first op to mix devices is `max_probs.ge(self.classwise_acc[label_u])` in
`forward_train`, CPU confidences against the GPU thresholds.)
Stand-in: OTX's `SemiClsHead` / `SemiLinearClsHead` (mmcls `LinearClsHead` reduced to `fc`,
`compute_loss`, `compute_accuracy`) and `SemiSLClassifier.forward_train` with a tiny backbone; the
meta device plays the GPU the machine has (`torch.cuda.is_available()` is True there).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

GPU_AVAILABLE = True   # the user's machine: torch.cuda.is_available() returns True

class LinearClsHead(nn.Module):
    def __init__(self, num_classes, in_channels, topk=(1,)):
        super().__init__()
        self.num_classes = num_classes
        self.in_channels = in_channels
        self.topk = topk
        self.fc = nn.Linear(in_channels, num_classes)

    def pre_logits(self, x):
        return x

    def compute_loss(self, cls_score, gt_label, avg_factor=None):
        return F.cross_entropy(cls_score, gt_label, reduction="sum") / avg_factor

    def compute_accuracy(self, cls_score, gt_label):
        pred = cls_score.argmax(dim=-1)
        return [(pred == gt_label).float().mean() * 100 for _ in self.topk]

class SemiClsHead:
    def __init__(self, unlabeled_coef=1.0, use_dynamic_threshold=True, min_threshold=0.5):
        self.unlabeled_coef = unlabeled_coef
        self.use_dynamic_threshold = use_dynamic_threshold
        self.min_threshold = min_threshold if self.use_dynamic_threshold else 0.95
        self.num_pseudo_label = 0
        self.classwise_acc = torch.ones((self.num_classes,)) * self.min_threshold
        if GPU_AVAILABLE:
            self.classwise_acc = self.classwise_acc.to("meta")   # OTX: self.classwise_acc.cuda()

    def loss(self, logits, gt_label, pseudo_label=None, mask=None):
        logits_x, logits_u_s = logits
        num_samples = len(logits_x)
        losses = dict()
        labeled_loss = self.compute_loss(logits_x, gt_label, avg_factor=num_samples)
        unlabeled_loss = 0
        if len(logits_u_s) > 0:
            unlabeled_loss = self.compute_loss(logits_u_s, pseudo_label, avg_factor=len(logits_u_s)) * mask
        losses["loss"] = labeled_loss + self.unlabeled_coef * unlabeled_loss
        acc = self.compute_accuracy(logits_x, gt_label)
        losses["accuracy"] = {f"top-{k}": a for k, a in zip(self.topk, acc)}
        return losses

    def forward_train(self, x, gt_label, final_layer=None):
        label_u, mask = None, None
        if isinstance(x, dict):
            for key in x.keys():
                x[key] = self.pre_logits(x[key])
            outputs = final_layer(x["labeled"])
            batch_size = len(outputs)
            with torch.no_grad():
                logit_uw = final_layer(x["unlabeled_weak"])
                pseudo_label = torch.softmax(logit_uw.detach(), dim=-1)
                max_probs, label_u = torch.max(pseudo_label, dim=-1)
                # select Pseudo-Label using flexible threhold
                mask = max_probs.ge(self.classwise_acc[label_u]).float()
                self.num_pseudo_label = mask.sum()
                if self.use_dynamic_threshold:
                    logit_x = torch.softmax(outputs.detach(), dim=-1)
                    x_probs, x_idx = torch.max(logit_x, dim=-1)
                    x_probs = x_probs[x_idx == gt_label]
                    x_idx = x_idx[x_idx == gt_label]
                    uw_probs = max_probs[mask == 1]
                    uw_idx = label_u[mask == 1]
                    for i in set(x_idx.tolist() + uw_idx.tolist()):
                        current_conf = torch.tensor([x_probs[x_idx == i].mean(), uw_probs[uw_idx == i].mean()])
                        current_conf = current_conf[~current_conf.isnan()].mean()
                        self.classwise_acc[i] = max(current_conf, self.min_threshold)
            outputs = torch.cat((outputs, final_layer(x["unlabeled_strong"])))
        else:
            outputs = final_layer(x)
            batch_size = len(outputs)
        logits_x = outputs[:batch_size]
        logits_u = outputs[batch_size:]
        del outputs
        logits = (logits_x, logits_u)
        return self.loss(logits, gt_label, label_u, mask)

class SemiLinearClsHead(SemiClsHead, LinearClsHead):
    def __init__(self, num_classes, in_channels, unlabeled_coef=1.0, use_dynamic_threshold=True, min_threshold=0.5):
        topk = (1,) if num_classes < 5 else (1, 5)
        LinearClsHead.__init__(self, num_classes, in_channels, topk=topk)
        SemiClsHead.__init__(self, unlabeled_coef, use_dynamic_threshold, min_threshold)

    def forward_train(self, x, gt_label):
        return SemiClsHead.forward_train(self, x, gt_label, final_layer=self.fc)

class SemiSLClassifier(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone = backbone
        self.head = head

    def extract_feat(self, img):
        return self.backbone(img)

    def forward_train(self, imgs, **kwargs):
        target = kwargs["gt_label"].squeeze()
        unlabeled_data = kwargs["extra_0"]
        x = {}
        x["labeled"] = self.extract_feat(imgs)
        img_uw = unlabeled_data["img"]
        with torch.no_grad():
            x["unlabeled_weak"] = self.extract_feat(img_uw)
        img_us = unlabeled_data["img_strong"]
        x["unlabeled_strong"] = self.extract_feat(img_us)
        losses = dict()
        loss = self.head.forward_train(x, target)
        losses.update(loss)
        return losses

backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
model = SemiSLClassifier(backbone, SemiLinearClsHead(num_classes=4, in_channels=8))
device = torch.device("cpu")      # the user trains on the CPU on purpose
model = model.to(device)

imgs = torch.randn(4, 3, 16, 16)
gt_label = torch.randint(0, 4, (4, 1))
extra_0 = {"img": torch.randn(8, 3, 16, 16), "img_strong": torch.randn(8, 3, 16, 16)}
'''
CELL = '''
losses = model.forward_train(imgs, gt_label=gt_label, extra_0=extra_0)
loss = losses["loss"].mean()   # mmcv _parse_losses reduces each loss with .mean()
loss.backward()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '        if GPU_AVAILABLE:\n            self.classwise_acc = self.classwise_acc.to("meta")   # OTX: self.classwise_acc.cuda()\n',
    '',
)
CLEAN = False
