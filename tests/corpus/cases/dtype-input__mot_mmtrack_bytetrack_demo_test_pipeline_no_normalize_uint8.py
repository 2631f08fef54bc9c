"""mmtracking ByteTrack (YOLOX-X) video demo: the test pipeline has no Normalize step, so the uint8 frame reaches the detector's first conv as a ByteTensor.

Source: https://github.com/open-mmlab/mmtracking/issues/390
`python demo/demo_mot_vis.py configs/mot/bytetrack/bytetrack_yolox_x_crowdhuman_mot17-private-half.py
--input myvideo.mp4` (no modifications) failed with "RuntimeError: Input type (torch.cuda.ByteTensor)
and weight type (torch.cuda.FloatTensor) should be the same". YOLOX uses no mean/std, so the config's
`test_pipeline` (Resize, RandomFlip, Pad, ImageToTensor) never converts the frame read by
`LoadImageFromWebcam` to float. The fix (PR #394, "Fix a bug in bytetrack when running demo") adds
`dict(type='Normalize', mean=[0.0, 0.0, 0.0], std=[1.0, 1.0, 1.0], to_rgb=False)` to the test pipeline,
which casts the image to float32.
Stand-in: mmtrack's `inference_mot`, a small pipeline Compose (mmdet transforms, nearest-neighbour
resize), and a two-conv YOLOX stub on the CPU (the dtype check is the same as on the GPU).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class LoadImageFromWebcam:
    def __init__(self, to_float32=False):
        self.to_float32 = to_float32

    def __call__(self, results):
        img = results["img"]
        if self.to_float32:
            img = img.astype(np.float32)
        results["img"] = img
        results["img_shape"] = img.shape
        return results

class Resize:
    def __init__(self, img_scale=None, keep_ratio=True):
        self.img_scale = img_scale
        self.keep_ratio = keep_ratio

    def __call__(self, results):
        img = results["img"]
        h, w = img.shape[:2]
        scale = min(self.img_scale[0] / max(h, w), self.img_scale[1] / min(h, w))
        nh, nw = int(h * scale + 0.5), int(w * scale + 0.5)
        rows = (np.arange(nh) * h / nh).astype(int)
        cols = (np.arange(nw) * w / nw).astype(int)
        results["img"] = img[rows][:, cols]
        results["scale_factor"] = scale
        return results

class RandomFlip:
    def __init__(self, flip_ratio=None):
        self.flip_ratio = flip_ratio

    def __call__(self, results):
        results["flip"] = False
        return results

class Normalize:
    def __init__(self, mean, std, to_rgb=True):
        self.mean = np.array(mean, dtype=np.float32)
        self.std = np.array(std, dtype=np.float32)
        self.to_rgb = to_rgb

    def __call__(self, results):
        img = results["img"].astype(np.float32)
        if self.to_rgb:
            img = img[..., ::-1]
        results["img"] = (img - self.mean) / self.std
        return results

class Pad:
    def __init__(self, size_divisor=None, pad_val=dict(img=0)):
        self.size_divisor = size_divisor
        self.pad_val = pad_val

    def __call__(self, results):
        img = results["img"]
        h, w = img.shape[:2]
        ph = int(np.ceil(h / self.size_divisor)) * self.size_divisor
        pw = int(np.ceil(w / self.size_divisor)) * self.size_divisor
        padded = np.empty((ph, pw, img.shape[2]), dtype=img.dtype)
        padded[...] = np.array(self.pad_val["img"], dtype=img.dtype)
        padded[:h, :w] = img
        results["img"] = padded
        return results

class ImageToTensor:
    def __init__(self, keys):
        self.keys = keys

    def __call__(self, results):
        for key in self.keys:
            results[key] = torch.from_numpy(np.ascontiguousarray(results[key].transpose(2, 0, 1)))
        return results

class VideoCollect:
    def __init__(self, keys):
        self.keys = keys

    def __call__(self, results):
        out = {k: results[k] for k in self.keys}
        out["img_metas"] = {"frame_id": results["img_info"]["frame_id"], "img_shape": results["img_shape"]}
        return out

class MultiScaleFlipAug:
    def __init__(self, transforms, img_scale, flip=False):
        self.transforms = Compose(transforms, img_scale=img_scale)

    def __call__(self, results):
        return self.transforms(results)

PIPELINES = {c.__name__: c for c in (LoadImageFromWebcam, Resize, RandomFlip, Normalize, Pad,
                                      ImageToTensor, VideoCollect, MultiScaleFlipAug)}

class Compose:
    def __init__(self, transforms, img_scale=None):
        self.transforms = []
        for t in transforms:
            args = {k: v for k, v in t.items() if k != "type"}
            if t["type"] == "Resize" and img_scale is not None:
                args.setdefault("img_scale", img_scale)
            self.transforms.append(PIPELINES[t["type"]](**args))

    def __call__(self, data):
        for t in self.transforms:
            data = t(data)
        return data

def load_config(path):
    """Stand-in for mmcv.Config.fromfile on the unmodified ByteTrack config (test part only)."""
    img_scale = (96, 160)
    test_pipeline = [
        dict(type="LoadImageFromFile"),
        dict(
            type="MultiScaleFlipAug",
            img_scale=img_scale,
            flip=False,
            transforms=[
                dict(type="Resize", keep_ratio=True),
                dict(type="RandomFlip"),
                dict(type="Pad", size_divisor=32, pad_val=dict(img=(114.0, 114.0, 114.0))),
                dict(type="ImageToTensor", keys=["img"]),
                dict(type="VideoCollect", keys=["img"]),
            ]),
    ]
    return dict(data=dict(test=dict(pipeline=test_pipeline)), filename=path)

class YOLOX(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1)
        self.head = nn.Conv2d(8, 6, kernel_size=1)

    def forward(self, img):
        return self.head(torch.relu(self.stem(img)))

class ByteTrack(nn.Module):
    def __init__(self):
        super().__init__()
        self.detector = YOLOX()

    def forward(self, img, img_metas, return_loss=False, rescale=True):
        return {"det_raw": self.detector(img), "frame_id": img_metas[0]["frame_id"]}

def init_model(config, checkpoint=None, device="cuda:0"):
    model = ByteTrack()
    model.cfg = config
    model.to(device)
    model.eval()
    return model

def inference_mot(model, img, frame_id):
    cfg = model.cfg
    if isinstance(img, np.ndarray):
        data = dict(img=img, img_info=dict(frame_id=frame_id), img_prefix=None)
        cfg = cfg.copy()
        cfg["data"]["test"]["pipeline"][0]["type"] = "LoadImageFromWebcam"
    test_pipeline = Compose(cfg["data"]["test"]["pipeline"])
    data = test_pipeline(data)
    data = {"img": data["img"].unsqueeze(0), "img_metas": [data["img_metas"]]}
    device = next(model.parameters()).device
    data["img"] = data["img"].to(device)
    with torch.no_grad():
        return model(return_loss=False, rescale=True, **data)

model = init_model(load_config("configs/mot/bytetrack/bytetrack_yolox_x_crowdhuman_mot17-private-half.py"),
                   "bytetrack_yolox_x_crowdhuman_mot17-private-half.pth", device="cpu")
# frames of myvideo.mp4 as mmcv.VideoReader yields them: HxWx3 uint8 BGR
frames = [np.random.randint(0, 256, (120, 200, 3), dtype=np.uint8) for _ in range(3)]
'''
CELL = '''
outputs = []
for i, img in enumerate(frames):
    result = inference_mot(model, img, frame_id=i)
    outputs.append(result)
'''
EXPECT_ERROR = "should be the same"
CULPRITS = ["model.cfg"]
FIX = "namespace"
REFERENCE_FIX = '''
model.cfg["data"]["test"]["pipeline"][1]["transforms"].insert(
    2, dict(type="Normalize", mean=[0.0, 0.0, 0.0], std=[1.0, 1.0, 1.0], to_rgb=False))
'''
REFERENCE_EDIT = None
CLEAN = False
