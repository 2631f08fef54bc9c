"""TrafficGen `generate.py`: the batch is washed to cuda, the models from load_from_checkpoint stay on the CPU.

Source: https://github.com/metadriverse/trafficgen/issues/43
Running `python generate.py --gif` failed with "Expected all tensors to be on the same device, but
found at least two devices". `trafficgen.__init__` builds `self.init_model =
initializer.load_from_checkpoint(...)` and `self.act_model = actuator.load_from_checkpoint(...)`
(Lightning loads them on the CPU), while `wash()` moves every batch tensor to cuda when
`cfg['device'] == 'cuda'`. A first workaround moved one mask inside `MCG_block`; the working fix
(hzxie) adds `self.init_model = self.init_model.to("cuda")` (and the same for `act_model`).
Stand-ins: the initializer reduced to its MCG encoder block and a head; the dataset to one batch.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch import Tensor

class MLP_3(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dims[0], dims[1]), nn.LayerNorm(dims[1]), nn.ReLU(),
                                 nn.Linear(dims[1], dims[2]), nn.LayerNorm(dims[2]), nn.ReLU(),
                                 nn.Linear(dims[2], dims[3]))

    def forward(self, x):
        return self.mlp(x)

class MCG_block(nn.Module):
    def __init__(self, hidden_dim):
        super().__init__()
        self.MLP = MLP_3([hidden_dim, hidden_dim, hidden_dim, hidden_dim])

    def forward(self, inp, context, mask):
        context = context.unsqueeze(1)
        mask = mask.unsqueeze(-1)
        inp = self.MLP(inp)
        inp = inp * context
        inp = inp.masked_fill(mask == 0, -1e9)
        context = torch.max(inp, dim=1)[0]
        return inp, context

class initializer(nn.Module):
    """Stand-in for the Lightning initializer: lane encoder + MCG block + a heatmap head."""
    def __init__(self, hidden_dim=64):
        super().__init__()
        self.CG_line = MCG_block(hidden_dim)
        self.line_encode = MLP_3([4, 32, 64, hidden_dim])
        self.prob_head = nn.Linear(hidden_dim, 1)

    @classmethod
    def load_from_checkpoint(cls, path):
        return cls()          # LightningModule.load_from_checkpoint: weights restored on the CPU

    def inference(self, data, context_num=1):
        line_enc = self.line_encode(data['center'])
        context = torch.ones(line_enc.shape[0], line_enc.shape[-1], device=line_enc.device)
        line_enc, _ = self.CG_line(line_enc, context, data['center_mask'])
        return {'prob': self.prob_head(line_enc).squeeze(-1)}

class trafficgen:
    def __init__(self, cfg):
        self.cfg = cfg
        self.init_model = initializer.load_from_checkpoint('traffic_generator/ckpt/init.ckpt')

    def wash(self, batch):
        """Transform the loaded raw data to pretty pytorch tensor."""
        for key in batch.keys():
            if isinstance(batch[key], np.ndarray):
                batch[key] = Tensor(batch[key])
            if isinstance(batch[key], torch.Tensor) and batch[key].dtype == torch.float64:
                batch[key] = batch[key].float()
            if isinstance(batch[key], torch.Tensor) and self.cfg['device'] == 'cuda':
                batch[key] = batch[key].to('cuda:0')        # .cuda() in the repo
            if 'mask' in key:
                batch[key] = batch[key].to(bool)

cfg = {'device': 'cuda', 'data_usage': 1}
tg = trafficgen(cfg)
tg.init_model.eval()

rng = np.random.default_rng(0)
data = {'center': rng.standard_normal((1, 256, 4)), 'center_mask': np.ones((1, 256), dtype=np.float32)}
batch = dict(data)
tg.wash(batch)
'''
CELL = '''
output = tg.init_model.inference(batch, context_num=1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["tg.init_model"]
FIX = "namespace"
REFERENCE_FIX = '''
tg.init_model = tg.init_model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
