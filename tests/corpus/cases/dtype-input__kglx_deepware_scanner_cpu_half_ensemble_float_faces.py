"""Deepware deepfake scanner (DFDC-trained EfficientNet ensemble) run with device `cpu`: the ensemble is halved unconditionally while the CPU faces stay float32.

Source: https://github.com/deepware/deepfake-scanner/issues/5
"CPU code returns 0.5 for all videos with warning message": `scan.py ... cpu` scored every video
0.5 because `process()` swallowed the real error, which the reporter then posted: "Input type
(torch.FloatTensor) and weight type (torch.HalfTensor) should be the same". `init()` ends with
`deepware = Ensemble(model_list).eval().to(device).half()` and `scan()` feeds float32 face crops
under `torch.cuda.amp.autocast()`, which casts nothing on the CPU; the maintainer pushed a quick fix
of the CPU path (the ensemble no longer run in half there) and the reporter confirmed it. The
scanner's EfficientNet-B7 was trained on the Kaggle DFDC data and benchmarked against the DFDC
winning solution. Stand-in: `tf_efficientnet_b7_ns` reduced to stem conv + head conv, MTCNN returns
one box per frame, `get_frames` yields random frames, `preprocess` is ToTensor + Normalize in torch.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.cuda.amp import autocast

device = 'cuda'

margin = 0
scan_fps = 1
batch_size = 32
face_size = None

mtcnn = None
deepware = None


class _TfEfficientNet(nn.Module):
    """Stand-in for timm's tf_efficientnet_b7_ns: forward_features returns the last feature map."""
    def __init__(self, num_features):
        super().__init__()
        self.conv_stem = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv_head = nn.Conv2d(16, num_features, 1, bias=False)

    def forward_features(self, x):
        return self.conv_head(torch.relu(self.bn1(self.conv_stem(x))))


class EffNet(nn.Module):
    def __init__(self, arch='b3'):
        super(EffNet, self).__init__()
        fc_size = {'b1': 40, 'b2': 44, 'b3': 48, 'b4': 56, 'b5': 64, 'b6': 72, 'b7': 80}
        assert arch in fc_size.keys()
        self.encoder = _TfEfficientNet(fc_size[arch])
        self.avg_pool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(0.2)
        self.fc = nn.Linear(fc_size[arch], 1)

    def forward(self, x):
        x = self.encoder.forward_features(x)
        x = self.avg_pool(x).flatten(1)
        x = self.dropout(x)
        x = self.fc(x)
        return x


class Ensemble(nn.Module):
    def __init__(self, models):
        super(Ensemble, self).__init__()
        self.models = nn.ModuleList(models)

    def forward(self, x):
        preds = []
        for i, model in enumerate(self.models):
            y = model(x)
            preds.append(y)
        final = torch.mean(torch.stack(preds), dim=0)
        return final


class MTCNN:
    """Stand-in for dface.MTCNN: one confident face box per frame."""
    def __init__(self, device):
        self.device = device

    def detect(self, batch):
        return [(np.array([[8, 8, 56, 56]]), np.array([0.99]), None) for _ in batch]


def get_frames(video, batch_size=10, target_fps=1):
    rng = np.random.default_rng(0)
    yield [rng.integers(0, 255, (64, 64, 3), dtype=np.uint8) for _ in range(4)]


def crop_face(img, box, margin=1):
    x1, y1, x2, y2 = [int(v) for v in box]
    return img[y1:y2, x1:x2]


_mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
_std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)

def preprocess(face):
    # transforms.ToTensor() + transforms.Normalize(mean, std)
    t = torch.from_numpy(np.ascontiguousarray(face)).permute(2, 0, 1).float() / 255.
    return (t - _mean) / _std


def scan(file):
    frames = get_frames(file, batch_size, scan_fps)
    faces, preds = [], []

    for batch in frames:
        results = mtcnn.detect(batch)
        for i, res in enumerate(results):
            if res is None:
                continue
            boxes, probs, lands = res
            for j, box in enumerate(boxes):
                if probs[j] > 0.98:
                    face = crop_face(batch[i], box, margin)
                    faces.append(face)

    if len(faces) == 0:
        return None, []

    with torch.no_grad():
        with autocast():
            n = batch_size
            splitted_faces = int(np.ceil(len(faces)/n))

            for i in range(splitted_faces):
                faces_proc = []
                for face in faces[i*n:(i+1)*n]:
                    face = preprocess(face)
                    faces_proc.append(face)

                x = torch.stack(faces_proc)
                y = deepware(x.to(device))
                preds.append(y)

    preds = torch.sigmoid(torch.cat(preds, dim=0))[:, 0]
    return preds, faces


def init(models_dir, cfg_file, dev):
    global device, mtcnn, deepware, margin, face_size

    cfg = {'arch': 'b7', 'margin': 0, 'size': 48}          # json.loads(open(cfg_file).read())
    arch = cfg['arch']
    margin = cfg['margin']
    face_size = (cfg['size'], cfg['size'])

    device = dev
    mtcnn = MTCNN(device)

    model_list = []
    for model_path in ['weights/model_0.pt', 'weights/model_1.pt']:   # glob('%s/*.pt' % models_dir)
        b3_model = EffNet(arch)                                          # + load_state_dict(torch.load(...))
        model_list.append(b3_model)

    deepware = Ensemble(model_list).eval().to(device).half()


init('weights', 'config.json', 'cpu')
video = 'data/mqzvfufzoq.mp4'
'''
CELL = '''
preds, faces = scan(video)
'''
EXPECT_ERROR = ("Input type", "should be the same")
CULPRITS = ["deepware"]
FIX = "namespace"
REFERENCE_FIX = '''
deepware = deepware.float()
'''
REFERENCE_EDIT = None
CLEAN = False
