"""Look-alike: MICN under a 2-GPU DataParallel once its padding zeros follow the input (`device=x.device`).

Source: https://github.com/thuml/Time-Series-Library/issues/535
The MIC layer with its padding made on the input's device (the minimal fix of the report): the layer still records `self.device = cuda:0` (an unused
attribute, no tensor), the replica on cuda:1 makes its padding with `device=x.device`, and
DataParallel gathers both halves on cuda:0. Two GPUs on purpose, every op on one device: nothing to
report. Stand-in: MICN reduced to one MIC layer (channels-first input), and `nn.DataParallel` with
hand-made scatter/replicate/gather as on a 2-GPU machine.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn

class DataParallel(nn.DataParallel):
    # stand-in: nn.DataParallel on a machine with GPUs 0 and 1, torch's own forward; scatter,
    # replicate, parallel_apply and gather done by hand (a CPU build has no NCCL). Like torch's
    # replicate, it copies parameters and buffers to each GPU and leaves other attributes as they are.
    def __init__(self, module, device_ids=(0, 1)):
        nn.Module.__init__(self)
        self.module, self.dim = module, 0
        self.device_ids = list(device_ids)
        self.output_device = self.device_ids[0]
        self.src_device_obj = torch.device(f"cuda:{self.device_ids[0]}")

    def scatter(self, inputs, kwargs, device_ids):
        chunks = [t.chunk(len(device_ids)) for t in inputs]
        return (tuple(tuple(c[i].to(f"cuda:{d}") for c in chunks) for i, d in enumerate(device_ids)),
                tuple(kwargs for _ in device_ids))

    def replicate(self, module, device_ids):
        replicas = [module]
        for d in device_ids[1:]:
            replica = copy.deepcopy(module)
            for m in replica.modules():
                for k, p in m._parameters.items():
                    if p is not None:
                        m._parameters[k] = nn.Parameter(p.detach().to(f"cuda:{d}"), p.requires_grad)
                for k, b in m._buffers.items():
                    if b is not None:
                        m._buffers[k] = b.to(f"cuda:{d}")
            replicas.append(replica)
        return replicas

    def parallel_apply(self, replicas, inputs, kwargs):
        return [r(*i, **k) for r, i, k in zip(replicas, inputs, kwargs)]

    def gather(self, outputs, output_device):
        return torch.cat([o.to(f"cuda:{output_device}") for o in outputs], dim=self.dim)


class MIC(nn.Module):
    """MICN's MIC layer: multi-scale downsampling, isometric and upsampling convolutions."""
    def __init__(self, feature_size=16, conv_kernel=(2, 4), isometric_kernel=(13, 7), device='cuda'):
        super().__init__()
        self.conv_kernel = conv_kernel
        self.device = device
        self.isometric_conv = nn.ModuleList([nn.Conv1d(feature_size, feature_size, kernel_size=i, padding=0, stride=1)
                                             for i in isometric_kernel])
        self.conv = nn.ModuleList([nn.Conv1d(feature_size, feature_size, kernel_size=i, padding=i // 2, stride=i)
                                   for i in conv_kernel])
        self.conv_trans = nn.ModuleList([nn.ConvTranspose1d(feature_size, feature_size, kernel_size=i, padding=0, stride=i)
                                         for i in conv_kernel])
        self.merge = nn.Conv2d(feature_size, feature_size, kernel_size=(len(conv_kernel), 1))
        self.norm = nn.LayerNorm(feature_size)
        self.act = nn.Tanh()
        self.drop = nn.Dropout(0.05)

    def conv_trans_conv(self, input, conv1d, conv1d_trans, isometric):
        batch, channel, seq_len = input.shape
        # downsampling convolution
        x1 = self.drop(self.act(conv1d(input)))
        x = x1
        # isometric convolution
        zeros = torch.zeros((x.shape[0], x.shape[1], x.shape[2] - 1), device=x.device)
        x = torch.cat((zeros, x), dim=-1)
        x = self.drop(self.act(isometric(x)))
        # upsampling convolution
        x = self.drop(self.act(conv1d_trans(x + x1)))
        return x.narrow(-1, 0, seq_len) + input  # truncate

    def forward(self, src):
        multi = [self.conv_trans_conv(src, self.conv[i], self.conv_trans[i], self.isometric_conv[i])
                 for i in range(len(self.conv_kernel))]
        mg = self.merge(torch.stack(multi, dim=-2)).squeeze(-2)
        return self.norm(mg.transpose(1, 2))

class Model(nn.Module):
    """MICN reduced: token embedding, one MIC layer and the projection (series decomposition dropped)."""
    def __init__(self, enc_in=7, d_model=16, c_out=7):
        super().__init__()
        self.dec_embedding = nn.Conv1d(enc_in, d_model, kernel_size=3, padding=1)
        self.mic = MIC(feature_size=d_model, device=torch.device('cuda:0'))
        self.projection = nn.Linear(d_model, c_out)

    def forward(self, x_enc):
        # x_enc: [batch, channels, length]
        return self.projection(self.mic(self.dec_embedding(x_enc)))

model = DataParallel(Model().to("cuda:0"), device_ids=[0, 1])
batch_x = torch.randn(8, 7, 24, device="cuda:0")
'''
CELL = '''
outputs = model(batch_x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
