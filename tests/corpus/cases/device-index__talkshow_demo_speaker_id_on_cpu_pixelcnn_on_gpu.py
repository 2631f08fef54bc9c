"""TalkSHOW demo: the speaker id is built on the demo's `device = 'cpu'`, the body PixelCNN runs on cuda.

Source: https://github.com/yhw-yhw/TalkSHOW/issues/36
"While executing python demo scripts I'm getting 'Expected all tensors to be on the same device'
error." scripts/demo.py sets a module-level `device = 'cpu'` and builds `id = torch.tensor([id],
device=device)`, while the s2g_body_pixel wrapper puts its generator on `args.device` (cuda);
`infer_on_audio` only repeats the id, and `GatedMaskedConv2d.forward` looks it up in its
`class_cond_embedding` on the GPU. A commenter's fix moves `h` to the embedding's device. Stand-in:
the wrapper and GatedPixelCNN reduced (no audio branch, 2 layers, a tiny latent grid, greedy
sampling instead of `multinomial`, `narrow`/`unsqueeze`/`where` for the indexing and the
in-place pixel write).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import types
import torch
import torch.nn as nn
import torch.nn.functional as F

class GatedActivation(nn.Module):
    def forward(self, x):
        x, y = x.chunk(2, dim=1)
        return torch.tanh(x) * torch.sigmoid(y)

class GatedMaskedConv2d(nn.Module):
    def __init__(self, mask_type, dim, kernel, residual=True, n_classes=10):
        super().__init__()
        self.mask_type = mask_type
        self.residual = residual
        self.class_cond_embedding = nn.Embedding(n_classes, 2 * dim)
        self.vert_stack = nn.Conv2d(dim, dim * 2, (kernel // 2 + 1, 1), 1, (kernel // 2, 0))
        self.horiz_resid = nn.Conv2d(dim, dim, 1)
        self.gate = GatedActivation()

    def forward(self, x_v, x_h, h):
        h = self.class_cond_embedding(h)
        h_vert = self.vert_stack(x_v)
        h_vert = h_vert.narrow(2, 0, x_v.size(-2))
        out_v = self.gate(h_vert + h.unsqueeze(-1).unsqueeze(-1))
        if self.residual:
            out_v = self.horiz_resid(out_v) + x_v
        else:
            out_v = self.horiz_resid(out_v)
        return out_v, out_v

class GatedPixelCNN(nn.Module):
    def __init__(self, input_dim=256, dim=64, n_layers=2, n_classes=4):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, dim)
        self.layers = nn.ModuleList()
        for i in range(n_layers):
            mask_type = 'A' if i == 0 else 'B'
            kernel = 7 if i == 0 else 3
            self.layers.append(GatedMaskedConv2d(mask_type, dim, kernel, i != 0, n_classes))
        self.output_conv = nn.Sequential(nn.Conv2d(dim, 128, 1), nn.ReLU(True), nn.Conv2d(128, input_dim, 1))

    def forward(self, x, label):
        shp = x.size() + (-1,)
        x = self.embedding(x.view(-1)).view(shp)
        x = x.permute(0, 3, 1, 2)
        x_v, x_h = (x, x)
        for layer in self.layers:
            x_v, x_h = layer(x_v, x_h, label)
        return self.output_conv(x_v)

    def generate(self, label, shape=(8, 8), batch_size=64):
        param = next(self.parameters())
        x = torch.zeros((batch_size, *shape), dtype=torch.int64, device=param.device)
        for i in range(shape[0]):
            for j in range(shape[1]):
                logits = self.forward(x, label)
                probs = F.softmax(logits.narrow(2, i, 1).narrow(3, j, 1).flatten(1), -1)
                sel = ((torch.arange(shape[0], device=x.device).view(1, -1, 1) == i)
                       & (torch.arange(shape[1], device=x.device).view(1, 1, -1) == j))
                x = torch.where(sel, probs.argmax(-1).view(-1, 1, 1), x)   # x.data[:, i, j].copy_(...)
        return x

class TrainWrapper:                                   # nets/smplx_body_pixel.py (reduced)
    def __init__(self, args):
        self.args = args
        self.device = torch.device(self.args.device)
        self.num_classes = 4
        self.generator = GatedPixelCNN(256, 64, 2, self.num_classes).to(self.device)

    def infer_on_audio(self, aud_feat, id=None, B=1, **kwargs):
        self.generator.eval()
        aud_feat = aud_feat.to(self.device)
        if id is None:
            id = torch.tensor([0]).to(self.device)
        else:
            id = id.repeat(B)
        with torch.no_grad():
            latents = self.generator.generate(id, shape=[aud_feat.shape[1] // 4, 2], batch_size=B)
        return latents

device = 'cpu'                                        # scripts/demo.py: global device
args = types.SimpleNamespace(device='cuda:0', id=0, num_sample=1)
g_body = TrainWrapper(args)
aud_feat = torch.randn(1, 12, 64)                     # (B, T, mfcc) for a short clip
id = torch.tensor([args.id], device=device)
'''
CELL = '''
for i in range(args.num_sample):
    pred_res = g_body.infer_on_audio(aud_feat, id=id, B=1, fps=30)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["id"]
FIX = "namespace"
REFERENCE_FIX = '''
id = id.to(g_body.device)
'''
REFERENCE_EDIT = None
CLEAN = False
