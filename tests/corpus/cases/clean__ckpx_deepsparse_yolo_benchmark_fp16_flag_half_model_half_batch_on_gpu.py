"""Look-alike: DeepSparse YOLO benchmark with `--engine torch --fp16` on the GPU: the FP16 checkpoint module runs as half, and `_preprocess_batch` casts the images to half.

Source: https://github.com/neuralmagic/deepsparse/blob/main/examples/ultralytics-yolo/benchmark.py
`_load_model` takes `torch.load(args.model_filepath)["model"]` (a half module, as ultralytics saves it),
moves it to `args.device`, and with `args.fp16` calls `model.half()` (the full-precision branch calls
`model.float()` since PR #154); `_preprocess_batch` does
`batch = batch.half() if args.fp16 else batch.float()`. The uint8 numpy batches, the half weights and
the half inputs all line up on cuda:0: nothing to report. Stand-ins: the YOLOv5 network reduced to
Conv-BN-SiLU blocks and a 1x1 detection head; the `.pt` file is an in-memory dict read by a
`torch.load` stand-in.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import numpy
import torch
import torch.nn as nn

TORCH_ENGINE = "torch"

def autopad(k, p=None):
    if p is None:
        p = k // 2 if isinstance(k, int) else [x // 2 for x in k]
    return p

class Conv(nn.Module):
    """models/common.py Conv: conv2d + BatchNorm2d + SiLU"""
    def __init__(self, c1, c2, k=1, s=1, p=None):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, autopad(k, p), bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))

class Model(nn.Module):
    """models/yolo.py Model, reduced: a small backbone and one Detect output."""
    def __init__(self, nc=80, na=3):
        super().__init__()
        self.nc, self.na, self.no = nc, na, nc + 5
        self.model = nn.Sequential(Conv(3, 16, 6, 2, 2), Conv(16, 32, 3, 2), Conv(32, 32, 1, 1))
        self.detect = nn.Conv2d(32, na * self.no, 1)

    def forward(self, x):
        x = self.detect(self.model(x))
        bs, _, ny, nx = x.shape
        y = x.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).sigmoid()
        return (y.reshape(bs, -1, self.no), None)

# --- yolov5s.pt as ultralytics' train.py saves it: 'model': deepcopy(de_parallel(model)).half()
_FILES = {"yolov5s.pt": {"epoch": -1, "model": Model().half(), "optimizer": None}}

def torch_load(path):
    """torch.load(path) of an ultralytics checkpoint (pickled module)"""
    return _FILES[path]

class args:
    engine = TORCH_ENGINE
    model_filepath = "yolov5s.pt"
    device = "cuda:0"
    fp16 = True
    batch_size = 2
    image_shape = [64, 64]

def _load_model(args):
    print(f"loading torch model for {args.model_filepath}")
    model = torch_load(args.model_filepath)
    if isinstance(model, dict):
        model = model["model"]
    model.to(args.device)
    model.eval()
    if args.fp16:
        print("Using half precision")
        model.half()
    else:
        print("Using full precision")
        model.float()
    has_postprocessing = True
    return model, has_postprocessing

def _preprocess_batch(args, batch):
    if args.engine == TORCH_ENGINE:
        batch = torch.from_numpy(batch)
        batch = batch.to(args.device)
        batch = batch.half() if args.fp16 else batch.float()
        batch /= 255.0
    return batch

def _run_model(args, model, batch):
    outputs = None
    if args.engine == TORCH_ENGINE:
        outputs = model(batch)
    return outputs

model, has_postprocessing = _load_model(args)
# _iter_batches(load_images(...)): stacked uint8 batches
data_loader = [numpy.random.randint(0, 255, (args.batch_size, 3, *args.image_shape), dtype=numpy.uint8)]
'''
CELL = '''
with torch.no_grad():
    for iteration, batch in enumerate(data_loader):
        # pre-processing
        batch = _preprocess_batch(args, batch)
        # inference
        outputs = _run_model(args, model, batch)
        outputs = outputs[0]  # post-processed values stored in first output
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
