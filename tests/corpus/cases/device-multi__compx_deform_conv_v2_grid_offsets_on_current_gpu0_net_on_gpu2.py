"""pytorch-deform-conv-v2 on GPU2: the sampling grid `p_0`/`p_n` lands on GPU0, so `p = p_0 + p_n + offset` fails.

Source: https://github.com/4uiiurz1/pytorch-deform-conv-v2/issues/12
The user wanted the whole network on GPU2 instead of GPU0, but `DeformConv2d._get_p` always produced
tensors on GPU0 and `p = p_0 + p_n + offset` failed. `_get_p_n` / `_get_p_0` build the kernel and
position grids with `torch.arange`/`torch.meshgrid` on the CPU and convert them with
`.type(dtype)`, `dtype` being `offset.data.type()` = 'torch.cuda.FloatTensor', which puts them on the
*current* CUDA device (cuda:0), not on the offset's device. The user's fix: pass the device in and
build the grids there. Stand-ins: `.type('torch.cuda.FloatTensor')` written as the move to the
current device it performs (cuda:0); the bilinear sampling after `_get_p` reduced to a conv of the
input weighted by the sampling positions.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

CURRENT_DEVICE = "cuda:0"             # torch.cuda.current_device(): .type('torch.cuda.FloatTensor') lands here

class DeformConv2d(nn.Module):
    def __init__(self, inc, outc, kernel_size=3, padding=1, stride=1):
        super().__init__()
        self.kernel_size, self.padding, self.stride = kernel_size, padding, stride
        self.conv = nn.Conv2d(inc, outc, kernel_size=kernel_size, stride=kernel_size)
        self.p_conv = nn.Conv2d(inc, 2 * kernel_size * kernel_size, kernel_size=3, padding=1, stride=stride)

    def forward(self, x):
        offset = self.p_conv(x)
        dtype = offset.dtype
        N = offset.size(1) // 2
        # (b, 2N, h, w)
        p = self._get_p(offset, dtype)
        return self.conv(x) * p.mean(1, keepdim=True)[:, :, ::self.kernel_size, ::self.kernel_size]

    def _get_p_n(self, N, dtype):
        p_n_x, p_n_y = torch.meshgrid(
            torch.arange(-(self.kernel_size-1)//2, (self.kernel_size-1)//2+1),
            torch.arange(-(self.kernel_size-1)//2, (self.kernel_size-1)//2+1), indexing="ij")
        # (2N, 1)
        p_n = torch.cat([torch.flatten(p_n_x), torch.flatten(p_n_y)], 0)
        p_n = p_n.view(1, 2*N, 1, 1).to(device=CURRENT_DEVICE, dtype=dtype)
        return p_n

    def _get_p_0(self, h, w, N, dtype):
        p_0_x, p_0_y = torch.meshgrid(
            torch.arange(1, h*self.stride+1, self.stride),
            torch.arange(1, w*self.stride+1, self.stride), indexing="ij")
        p_0_x = torch.flatten(p_0_x).view(1, 1, h, w).repeat(1, N, 1, 1)
        p_0_y = torch.flatten(p_0_y).view(1, 1, h, w).repeat(1, N, 1, 1)
        p_0 = torch.cat([p_0_x, p_0_y], 1).to(device=CURRENT_DEVICE, dtype=dtype)
        return p_0

    def _get_p(self, offset, dtype):
        N, h, w = offset.size(1)//2, offset.size(2), offset.size(3)
        # (1, 2N, 1, 1)
        p_n = self._get_p_n(N, dtype)
        # (1, 2N, h, w)
        p_0 = self._get_p_0(h, w, N, dtype)
        p = p_0 + p_n + offset
        return p

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 8, 3, padding=1)
        self.dcn = DeformConv2d(8, 16)
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        x = torch.relu(self.stem(x))
        x = torch.relu(self.dcn(x))
        return self.head(x.mean(dim=(2, 3)))

device = torch.device("cuda:2")
net = Net().to(device)
images = torch.randn(2, 1, 24, 24).to(device)
'''
CELL = '''
outputs = net(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net.dcn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        p_n = self._get_p_n(N, dtype)
        # (1, 2N, h, w)
        p_0 = self._get_p_0(h, w, N, dtype)''',
                  '''        p_n = self._get_p_n(N, dtype).to(offset.device)
        # (1, 2N, h, w)
        p_0 = self._get_p_0(h, w, N, dtype).to(offset.device)''')
CLEAN = False
