"""wespeaker CLI: the user switched `Speaker.__init__`'s `self.device` to CUDA, so features go to the GPU but the model stays on the CPU.

Source: https://github.com/wenet-e2e/wespeaker/issues/409
"如何使用GPU进行推理" (how to run inference on the GPU): diarization with `wespeaker.load_model('chinese')`
was slow; the user found `self.device=torch.device("cpu")` in `Speaker.__init__` and changed it to
`torch.device("cuda")`, then `model.diarize('1.wav')` failed inside `self.model(batch_feats)` at the
ResNet's `conv1`. `extract_embedding_feats` moves `batch_feats` to `self.device`, but the torch model
is only moved by `Speaker.set_device()` (`self.model = self.model.to(self.device)`); the supported way
is `model.set_device('cuda')` (the CLI's `--device` option). Stand-in: the ResNet reduced to
conv1/bn1/pooling/linear, fbank features random. SIM meta: "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class ResNet(nn.Module):
    def __init__(self, feat_dim=80, embed_dim=32):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.seg_1 = nn.Linear(8 * 2, embed_dim)

    def _get_frame_level_feat(self, x):
        x = x.permute(0, 2, 1).unsqueeze(1)              # (B,T,F) -> (B,1,F,T)
        return F.relu(self.bn1(self.conv1(x)))

    def forward(self, x):
        out = self._get_frame_level_feat(x)
        stats = torch.cat([out.mean(dim=(2, 3)), out.std(dim=(2, 3))], dim=1)
        return self.seg_1(stats)

class Speaker:
    def __init__(self, model_dir=None):
        self.model = ResNet()
        self.model.eval()
        self.device = torch.device("meta")             # user's edit: was torch.device("cpu"), now "cuda"

    def set_device(self, device):
        self.device = torch.device(device)
        self.model = self.model.to(self.device)

    def extract_embedding_feats(self, fbanks, batch_size, subseg_cmn):
        fbanks_array = np.stack(fbanks)
        if subseg_cmn:
            fbanks_array = fbanks_array - np.mean(fbanks_array, axis=1, keepdims=True)
        embeddings = []
        with torch.no_grad():
            for i in range(0, fbanks_array.shape[0], batch_size):
                batch_feats = fbanks_array[i:i + batch_size]
                batch_feats = torch.from_numpy(batch_feats).float().to(self.device)
                batch_embs = self.model(batch_feats)
                embeddings.append(batch_embs)
        return torch.cat(embeddings)

model = Speaker()                                    # wespeaker.load_model('chinese')
rng = np.random.default_rng(0)
subseg_fbanks = [rng.standard_normal((150, 80)).astype(np.float32) for _ in range(6)]
'''
CELL = '''
embeddings = model.extract_embedding_feats(subseg_fbanks, 4, True)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "Input type")
CULPRITS = ["model.model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.set_device(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
