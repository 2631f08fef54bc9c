"""Look-alike: a SpeechBrain ECAPA speaker-embedding training step: the whole PaddedBatch (waveforms, relative lengths, speaker ids) is moved before the AAM-softmax loss.

Source: https://github.com/speechbrain/speechbrain (recipes/VoxCeleb/SpeakerRec/train_speaker_embeddings.py, speechbrain/nnet/losses.py)
`compute_forward` starts with `batch = batch.to(self.device)` and unpacks `wavs, lens = batch.sig`;
`compute_objectives` takes `spkid, _ = batch.spk_id_encoded` from the same moved batch (the string
`batch.id` list stays on the host) and calls `LogSoftmaxWrapper(AdditiveAngularMargin(...))`, which
builds its one-hot targets with `F.one_hot(targets.long(), outputs.shape[1])` on the targets' device.
Stand-ins: PaddedBatch/PaddedData with their recursive `.to()`; ECAPA reduced to a conv feature
extractor, a length-masked mean/var norm, a linear embedding and the cosine `Classifier`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from collections import namedtuple
import torch
from torch import nn
import torch.nn.functional as F

PaddedData = namedtuple("PaddedData", ["data", "lengths"])

class PaddedBatch:
    """Stand-in for speechbrain.dataio.batch.PaddedBatch."""
    def __init__(self, **fields):
        self.__keys = list(fields)
        for k, v in fields.items():
            setattr(self, k, v)

    def to(self, *args, **kwargs):
        for k in self.__keys:
            v = getattr(self, k)
            if isinstance(v, PaddedData):
                setattr(self, k, PaddedData(v.data.to(*args, **kwargs), v.lengths.to(*args, **kwargs)))
            elif isinstance(v, torch.Tensor):
                setattr(self, k, v.to(*args, **kwargs))
        return self

class AdditiveAngularMargin(nn.Module):
    def __init__(self, margin=0.2, scale=30.0, easy_margin=False):
        super().__init__()
        self.margin, self.scale, self.easy_margin = margin, scale, easy_margin
        self.cos_m = math.cos(margin)
        self.sin_m = math.sin(margin)
        self.th = math.cos(math.pi - margin)
        self.mm = math.sin(math.pi - margin) * margin

    def forward(self, outputs, targets):
        cosine = outputs.float()
        cosine = torch.clamp(cosine, -1 + 1e-7, 1 - 1e-7)
        sine = torch.sqrt(1.0 - torch.pow(cosine, 2))
        phi = cosine * self.cos_m - sine * self.sin_m
        phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        outputs = (targets * phi) + ((1.0 - targets) * cosine)
        return self.scale * outputs

class LogSoftmaxWrapper(nn.Module):
    def __init__(self, loss_fn):
        super().__init__()
        self.loss_fn = loss_fn
        self.criterion = torch.nn.KLDivLoss(reduction="sum")

    def forward(self, outputs, targets, length=None):
        outputs = outputs.squeeze(1)
        targets = targets.squeeze(1)
        targets = F.one_hot(targets.long(), outputs.shape[1]).float()
        predictions = self.loss_fn(outputs, targets)
        predictions = F.log_softmax(predictions, dim=1)
        return self.criterion(predictions, targets) / targets.sum()

class InputNormalization(nn.Module):
    def forward(self, x, lengths):
        mask = (torch.arange(x.shape[1], device=x.device)[None, :] < (lengths * x.shape[1])[:, None]).float()
        mean = (x * mask[..., None]).sum(1, keepdim=True) / mask.sum(1)[:, None, None]
        return x - mean

class Classifier(nn.Module):
    def __init__(self, input_size=16, out_neurons=10):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_neurons, input_size))

    def forward(self, x):
        x = F.linear(F.normalize(x.squeeze(1)), F.normalize(self.weight))
        return x.unsqueeze(1)

modules = nn.ModuleDict({
    "compute_features": nn.Conv1d(1, 8, 400, stride=160),
    "mean_var_norm": InputNormalization(),
    "embedding_model": nn.Linear(8, 16),
    "classifier": Classifier(),
})
device = torch.device("cuda:0")
modules.to(device)
compute_cost = LogSoftmaxWrapper(loss_fn=AdditiveAngularMargin(margin=0.2, scale=30))

batch = PaddedBatch(
    id=["id10001-1zcIwhmdeo4-00001", "id10002-6WO410QOeuo-00001", "id10003-5ablueV_1tw-00002"],
    sig=PaddedData(torch.randn(3, 4800), torch.tensor([1.0, 0.8, 0.65])),
    spk_id_encoded=PaddedData(torch.tensor([[3], [7], [1]]), torch.ones(3)),
)
'''
CELL = '''
batch = batch.to(device)
wavs, lens = batch.sig
feats = modules["compute_features"](wavs.unsqueeze(1)).transpose(1, 2)
feats = modules["mean_var_norm"](feats, lens)
embeddings = modules["embedding_model"](feats.mean(1, keepdim=True))
outputs = modules["classifier"](embeddings)
spkid, _ = batch.spk_id_encoded
with torch.no_grad():
    loss = compute_cost(outputs, spkid, lens)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
