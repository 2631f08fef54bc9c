"""Look-alike: SIIM-ISIC Melanoma 1st place `val_epoch`: TTA sums are made with `torch.zeros(...).to(device)`, results are copied to the CPU while the loss still runs on the GPU.

Source: https://github.com/haqishen/SIIM-ISIC-Melanoma-Classification-1st-Place-Solution/blob/8250ca417635aba9b1b0f5c2afa25f1f4f0db467/train.py
The Kaggle SIIM-ISIC Melanoma Classification winners' validation loop (with image + meta
features) builds its `logits`/`probs` accumulators on the CPU and moves them with `.to(device)`,
adds `n_test` flipped predictions, appends `.detach().cpu()` copies to lists for the metrics and
computes `criterion(logits, target)` on the device copies. Every tensor that meets the model or
the loss is on cuda:0; the CPU lists only hold copies. Stand-in: `Effnet_Melanoma` with the
geffnet backbone reduced to one conv + pooling; `args` a namespace; the loader a list of batches;
the sklearn AUC / `.numpy()` tail left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn


class Swish_Module(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


class _Enet(nn.Module):
    """Stand-in for geffnet.create_model(enet_type) with classifier = nn.Identity()."""
    def __init__(self, in_ch=32):
        super().__init__()
        self.conv = nn.Conv2d(3, in_ch, 3, stride=2, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Identity()

    def forward(self, x):
        return self.classifier(self.pool(torch.relu(self.conv(x))).flatten(1))


class Effnet_Melanoma(nn.Module):
    def __init__(self, enet_type, out_dim, n_meta_features=0, n_meta_dim=[512, 128], pretrained=False):
        super(Effnet_Melanoma, self).__init__()
        self.n_meta_features = n_meta_features
        self.enet = _Enet()
        self.dropouts = nn.ModuleList([
            nn.Dropout(0.5) for _ in range(5)
        ])
        in_ch = 32
        if n_meta_features > 0:
            self.meta = nn.Sequential(
                nn.Linear(n_meta_features, n_meta_dim[0]),
                nn.BatchNorm1d(n_meta_dim[0]),
                Swish_Module(),
                nn.Dropout(p=0.3),
                nn.Linear(n_meta_dim[0], n_meta_dim[1]),
                nn.BatchNorm1d(n_meta_dim[1]),
                Swish_Module(),
            )
            in_ch += n_meta_dim[1]
        self.myfc = nn.Linear(in_ch, out_dim)

    def extract(self, x):
        return self.enet(x)

    def forward(self, x, x_meta=None):
        x = self.extract(x).squeeze(-1).squeeze(-1)
        if self.n_meta_features > 0:
            x_meta = self.meta(x_meta)
            x = torch.cat((x, x_meta), dim=1)
        for i, dropout in enumerate(self.dropouts):
            if i == 0:
                out = self.myfc(dropout(x))
            else:
                out += self.myfc(dropout(x))
        out /= len(self.dropouts)
        return out


def get_trans(img, I):
    if I >= 4:
        img = img.transpose(2, 3)
    if I % 4 == 0:
        return img
    elif I % 4 == 1:
        return img.flip(2)
    elif I % 4 == 2:
        return img.flip(3)
    elif I % 4 == 3:
        return img.flip(2).flip(3)


def val_epoch(model, loader, mel_idx, is_ext=None, n_test=1, get_output=False):
    model.eval()
    val_loss = []
    LOGITS = []
    PROBS = []
    TARGETS = []
    with torch.no_grad():
        for (data, target) in loader:
            if args.use_meta:
                data, meta = data
                data, meta, target = data.to(device), meta.to(device), target.to(device)
                logits = torch.zeros((data.shape[0], args.out_dim)).to(device)
                probs = torch.zeros((data.shape[0], args.out_dim)).to(device)
                for I in range(n_test):
                    l = model(get_trans(data, I), meta)
                    logits += l
                    probs += l.softmax(1)
            else:
                data, target = data.to(device), target.to(device)
                logits = torch.zeros((data.shape[0], args.out_dim)).to(device)
                probs = torch.zeros((data.shape[0], args.out_dim)).to(device)
                for I in range(n_test):
                    l = model(get_trans(data, I))
                    logits += l
                    probs += l.softmax(1)
            logits /= n_test
            probs /= n_test

            LOGITS.append(logits.detach().cpu())
            PROBS.append(probs.detach().cpu())
            TARGETS.append(target.detach().cpu())

            loss = criterion(logits, target)
            val_loss.append(loss.detach().cpu())

    LOGITS = torch.cat(LOGITS)
    PROBS = torch.cat(PROBS)
    TARGETS = torch.cat(TARGETS)
    return val_loss, LOGITS, PROBS, TARGETS


args = SimpleNamespace(use_meta=True, out_dim=9, enet_type='efficientnet_b3')
device = torch.device('cuda:0')
criterion = nn.CrossEntropyLoss()
model = Effnet_Melanoma(args.enet_type, n_meta_features=14, n_meta_dim=[512, 128], out_dim=args.out_dim)
model = model.to(device)
valid_loader = [((torch.randn(4, 3, 32, 32), torch.randn(4, 14)), torch.randint(0, 9, (4,))) for _ in range(2)]
mel_idx = 6
'''
CELL = '''
val_loss, LOGITS, PROBS, TARGETS = val_epoch(model, valid_loader, mel_idx, n_test=8)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
