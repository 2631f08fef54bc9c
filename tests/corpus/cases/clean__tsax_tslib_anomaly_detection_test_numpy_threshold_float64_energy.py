"""Time-Series-Library anomaly detection `test`: float32 reconstruction scores go to numpy, are thresholded at a float64 percentile and compared with int labels.

Source: https://github.com/thuml/Time-Series-Library/blob/main/exp/exp_anomaly_detection.py
`Exp_Anomaly_Detection.test` scores train and test windows with `nn.MSELoss(reduce=False)` averaged
over the channels, moves each score to numpy (`score.detach().cpu().numpy()`), concatenates train
and test energies, sets `threshold = np.percentile(combined_energy, 100 - anomaly_ratio)` (a
float64), and builds `pred = (test_energy > threshold).astype(int)` against `gt =
test_labels.astype(int)`. Look-alike: float32 model outputs, float64 numpy statistics and int64
labels side by side by design, which runs. Stand-in: a linear reconstruction model; the point
adjustment loop is kept. CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, enc_in, d_model=16):
        super().__init__()
        self.enc = nn.Linear(enc_in, d_model)
        self.dec = nn.Linear(d_model, enc_in)

    def forward(self, x_enc, x_mark_enc, x_dec, x_mark_dec):
        return self.dec(torch.relu(self.enc(x_enc)))

def make_loader(n, win, c, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, win, c)).astype(np.float32)
    y = (rng.random((n, win)) < 0.05).astype(np.float64)
    return [(torch.from_numpy(x[i:i + 8]), torch.from_numpy(y[i:i + 8])) for i in range(0, n, 8)]

device = torch.device("cpu")
anomaly_ratio = 1.0
model = Model(enc_in=5).float().to(device)
train_loader, test_loader = make_loader(32, 20, 5, 0), make_loader(24, 20, 5, 1)
anomaly_criterion = nn.MSELoss(reduce=False)
'''
CELL = '''
attens_energy = []
model.eval()
with torch.no_grad():
    for i, (batch_x, batch_y) in enumerate(train_loader):
        batch_x = batch_x.float().to(device)
        outputs = model(batch_x, None, None, None)
        score = torch.mean(anomaly_criterion(batch_x, outputs), dim=-1)
        attens_energy.append(score.detach().cpu().numpy())
train_energy = np.array(np.concatenate(attens_energy, axis=0).reshape(-1))

attens_energy, test_labels = [], []
for i, (batch_x, batch_y) in enumerate(test_loader):
    batch_x = batch_x.float().to(device)
    outputs = model(batch_x, None, None, None)
    score = torch.mean(anomaly_criterion(batch_x, outputs), dim=-1)
    attens_energy.append(score.detach().cpu().numpy())
    test_labels.append(batch_y)
test_energy = np.array(np.concatenate(attens_energy, axis=0).reshape(-1))
combined_energy = np.concatenate([train_energy, test_energy], axis=0)
threshold = np.percentile(combined_energy, 100 - anomaly_ratio)

pred = (test_energy > threshold).astype(int)
gt = np.array(np.concatenate(test_labels, axis=0).reshape(-1)).astype(int)
anomaly_state = False
for i in range(len(gt)):
    if gt[i] == 1 and pred[i] == 1 and not anomaly_state:
        anomaly_state = True
        for j in range(i, 0, -1):
            if gt[j] == 0:
                break
            elif pred[j] == 0:
                pred[j] = 1
    elif gt[i] == 0:
        anomaly_state = False
    if anomaly_state:
        pred[i] = 1
accuracy = (pred == gt).mean()
print(threshold.dtype, accuracy)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
