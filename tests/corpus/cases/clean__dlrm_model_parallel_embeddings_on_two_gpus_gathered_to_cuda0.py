"""Look-alike: DLRM's model-parallel forward keeps embedding tables on different GPUs, looks each up on its own device and gathers to cuda:0.

Source: https://github.com/facebookresearch/dlrm/blob/main/dlrm_s_pytorch.py
With `ndevices > 1`, `DLRM_Net.parallel_forward` distributes the embedding tables round-robin
(`emb.to("cuda:" + str(k % ndevices))`), moves each table's offsets/indices to that table's device
before the lookup, and brings the pooled vectors back to the dense part's device for the feature
interaction. Tables on cuda:0 and cuda:1, indices on matching devices, a cuda:0 MLP: all deliberate,
nothing to report. Stand-in: the bottom/top MLPs, EmbeddingBag tables and the dot interaction, with
the scatter/gather of the batch replaced by explicit `.to()`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class DLRM_Net(nn.Module):
    def create_mlp(self, ln):
        layers = []
        for i in range(len(ln) - 1):
            layers += [nn.Linear(ln[i], ln[i + 1]), nn.ReLU()]
        return nn.Sequential(*layers)

    def __init__(self, m_spa, ln_emb, ln_bot, ln_top, ndevices):
        super().__init__()
        self.ndevices = ndevices
        self.emb_l = nn.ModuleList([nn.EmbeddingBag(n, m_spa, mode="sum") for n in ln_emb])
        self.bot_l = self.create_mlp(ln_bot)
        self.top_l = self.create_mlp(ln_top)

    def distribute(self):
        # model parallelism: embedding tables round-robin over the devices, MLPs on cuda:0
        for k, emb in enumerate(self.emb_l):
            emb.to(torch.device("cuda:" + str(k % self.ndevices)))
        self.bot_l.to("cuda:0")
        self.top_l.to("cuda:0")
        return self

    def apply_emb(self, lS_o, lS_i):
        ly = []
        for k, E in enumerate(self.emb_l):
            d = E.weight.device
            V = E(lS_i[k].to(d), lS_o[k].to(d))
            ly.append(V)
        return ly

    def interact_features(self, x, ly):
        (batch_size, d) = x.shape
        T = torch.cat([x] + ly, dim=1).view((batch_size, -1, d))
        Z = torch.bmm(T, torch.transpose(T, 1, 2))
        offset = 0
        li = torch.tensor([i for i in range(Z.shape[1]) for j in range(i + offset)], device=x.device)
        lj = torch.tensor([j for i in range(Z.shape[1]) for j in range(i + offset)], device=x.device)
        Zflat = Z.flatten(1).index_select(1, li * Z.shape[2] + lj)
        return torch.cat([x, Zflat], dim=1)

    def parallel_forward(self, dense_x, lS_o, lS_i):
        x = self.bot_l(dense_x.to("cuda:0"))
        ly = self.apply_emb(lS_o, lS_i)
        ly = [V.to(x.device) for V in ly]       # butterfly shuffle: bring pooled vectors to the dense device
        z = self.interact_features(x, ly)
        return torch.sigmoid(self.top_l(z))

m_spa, ln_emb = 4, [100, 80, 60, 40]
num_int = (len(ln_emb) + 1) * len(ln_emb) // 2 + m_spa
dlrm = DLRM_Net(m_spa, ln_emb, ln_bot=[13, 16, m_spa], ln_top=[num_int, 16, 1], ndevices=2).distribute()
dlrm.eval()
batch = 8
X = torch.rand(batch, 13)
lS_o = [torch.arange(batch) for _ in ln_emb]                       # one index per sample and table
lS_i = [torch.randint(0, n, (batch,)) for n in ln_emb]
'''
CELL = '''
with torch.no_grad():
    Z = dlrm.parallel_forward(X, lS_o, lS_i)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
