"""Ultralytics `track()` with the default TrackTrack tracker on an exported (ONNX) detector on GPU: the captured raw predictions are copied to the CPU, so the loose-NMS boxes meet the tight boxes on cuda:0.

Source: https://github.com/ultralytics/ultralytics/pull/25042
`YOLO("yolo11n.onnx").track(..., device=0)` crashed in `compute_dets_del` ->
`box_iou(loose_boxes.xyxy, tight_boxes.xyxy)` with "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!" (bytetrack and the .pt weights worked). Root cause
given in the PR: `attach_raw_preds_hook` stores the raw preds with `preds.detach().to("cpu", copy=True)`
when `preds` is a bare tensor (exported backends), so the loose re-run of the postprocess produces CPU
boxes while the predictor's results stay on the GPU; the fix keeps the capture on the source device
(`preds.detach().clone()`).
Stand-in: a small AutoBackend conv head for the ONNX session, a top-k stand-in for
`non_max_suppression` (more boxes kept at the loose IoU), and `compute_dets_del` returning the
per-box "dropped by tight NMS" masks instead of the numpy arrays built from them.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from functools import wraps
from types import SimpleNamespace

_LOOSE_NMS_IOU = 0.95
_LOOSE_NMS_DEDUP_IOU = 0.7

def xywh2xyxy(x):
    xy, wh = x.split([2, 2], dim=-1)
    return torch.cat([xy - wh / 2, xy + wh / 2], dim=-1)

def box_iou(box1, box2, eps=1e-7):
    (a1, a2), (b1, b2) = box1.float().unsqueeze(1).chunk(2, 2), box2.float().unsqueeze(0).chunk(2, 2)
    inter = (torch.min(a2, b2) - torch.max(a1, b1)).clamp_(0).prod(2)
    return inter / ((a2 - a1).prod(2) + (b2 - b1).prod(2) - inter + eps)

def non_max_suppression(prediction, conf_thres=0.25, iou_thres=0.7, max_det=300):
    """Stand-in: keep the top-k candidates by confidence (more survive a looser IoU); stays on prediction's device."""
    x = prediction.transpose(-1, -2)
    box, cls_scores = x.split([4, x.shape[-1] - 4], dim=-1)
    conf, j = cls_scores.max(-1, keepdim=True)
    k = 3 if iou_thres < 0.9 else 6
    keep = conf.squeeze(-1).topk(k, dim=1).indices
    out = torch.cat([xywh2xyxy(box), conf, j.float()], dim=-1)
    out = out.gather(1, keep.unsqueeze(-1).expand(-1, -1, out.shape[-1]))
    return list(out.unbind(0))

class Boxes:
    def __init__(self, data):
        self.data = data

    @property
    def xyxy(self):
        return self.data.narrow(-1, 0, 4)

    def __len__(self):
        return self.data.shape[0]

class Results:
    def __init__(self, orig_img, boxes):
        self.orig_img = orig_img
        self.boxes = Boxes(boxes)

class AutoBackend(nn.Module):
    """Stand-in for the ONNX Runtime session of yolo11n.onnx: returns one bare (B, 4 + nc, N) tensor."""
    def __init__(self, nc=2):
        super().__init__()
        self.head = nn.Conv2d(3, 4 + nc, kernel_size=8, stride=8)

    def forward(self, im):
        return self.head(im).flatten(2).sigmoid() * 64

def attach_raw_preds_hook(predictor):
    """Wrap `predictor.postprocess` to capture raw pre-NMS predictions and inputs (idempotent)."""
    if hasattr(predictor, "_orig_postprocess"):
        return
    orig = predictor.postprocess

    @wraps(orig)
    def _wrapped(preds, img, orig_imgs, *args, **kwargs):
        # copy=True so the in-place NMS xywh->xyxy conversion can't mutate this captured tensor (CPU aliasing)
        predictor._raw_preds = preds.detach().to("cpu", copy=True) if isinstance(preds, torch.Tensor) else preds
        predictor._postprocess_im = img
        predictor._postprocess_im0s = orig_imgs
        return orig(preds, img, orig_imgs, *args, **kwargs)

    predictor._orig_postprocess = orig
    predictor.postprocess = _wrapped

def compute_dets_del(predictor):
    """Per batch item, mark the loose-NMS boxes the tight NMS dropped (None if unavailable)."""
    raw = getattr(predictor, "_raw_preds", None)
    if raw is None or not isinstance(raw, torch.Tensor):
        return None
    loose_results = predictor._orig_postprocess(
        raw, predictor._postprocess_im, predictor._postprocess_im0s, iou=_LOOSE_NMS_IOU)
    out = []
    for loose, tight in zip(loose_results, predictor.results):
        tight_boxes, loose_boxes = tight.boxes, loose.boxes
        if len(loose_boxes) == 0 or len(tight_boxes) == 0:
            out.append(None)
            continue
        max_iou = box_iou(loose_boxes.xyxy, tight_boxes.xyxy).max(dim=1).values
        out.append(max_iou < _LOOSE_NMS_DEDUP_IOU)
    predictor._raw_preds = None
    return out

class TRACKTRACK:
    def __init__(self, args):
        self.args = args
        self.frame_id = 0

    @classmethod
    def setup_predictor(cls, predictor):
        if predictor.args.task in {"detect", "obb"}:
            attach_raw_preds_hook(predictor)

    @classmethod
    def compute_frame_extras(cls, predictor):
        return compute_dets_del(predictor)

    def update(self, results, img=None, dets_del=None):
        self.frame_id += 1
        return results

def on_predict_start(predictor, persist=False):
    if hasattr(predictor, "trackers") and persist:
        return
    TRACKTRACK.setup_predictor(predictor)
    predictor.trackers = [TRACKTRACK(predictor.args) for _ in range(predictor.args.batch)]

def on_predict_postprocess_end(predictor, persist=False):
    dets_del = TRACKTRACK.compute_frame_extras(predictor)
    for i, result in enumerate(predictor.results):
        predictor.trackers[i].update(result.boxes, result.orig_img, None if dets_del is None else dets_del[i])

class DetectionPredictor:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.results = None

    @property
    def device(self):
        return next(self.model.parameters()).device

    def preprocess(self, im0s):
        return im0s.to(self.device).float() / 255

    def postprocess(self, preds, img, orig_imgs, iou=None):
        preds = non_max_suppression(preds, self.args.conf, self.args.iou if iou is None else iou)
        return [Results(orig_img, boxes=pred) for pred, orig_img in zip(preds, orig_imgs.unbind(0))]

    def __call__(self, im0s, persist=False):
        on_predict_start(self, persist)
        im = self.preprocess(im0s)
        preds = self.model(im)
        self.results = self.postprocess(preds, im, im0s)
        on_predict_postprocess_end(self, persist)
        return self.results

class YOLO:
    def __init__(self, model, task="detect"):
        self.ckpt_path = model
        self.task = task
        self.backend = AutoBackend()
        self.predictor = None

    def track(self, source, device=0, persist=False, conf=0.25, iou=0.7, tracker="tracktrack.yaml"):
        if self.predictor is None:
            self.backend.to(torch.device(f"cuda:{device}"))
            args = SimpleNamespace(task=self.task, conf=conf, iou=iou, batch=source.shape[0], tracker=tracker)
            self.predictor = DetectionPredictor(self.backend, args)
        return self.predictor(source, persist=persist)

model = YOLO("yolo11n.onnx", task="detect")          # exported with format="onnx", device=0
frame = torch.randint(0, 256, (1, 3, 64, 64), dtype=torch.uint8)   # one letterboxed video frame
'''
CELL = '''
results = model.track(frame, device=0, persist=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.predictor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('predictor._raw_preds = preds.detach().to("cpu", copy=True) if isinstance(preds, torch.Tensor) else preds',
                  'predictor._raw_preds = preds.detach().clone() if isinstance(preds, torch.Tensor) else preds')
CLEAN = False
