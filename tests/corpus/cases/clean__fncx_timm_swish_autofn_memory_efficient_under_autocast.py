"""Look-alike: timm's memory-efficient `SwishAutoFn` custom autograd Function runs under autocast without `custom_fwd`/`custom_bwd`: it holds no weights, so the low-precision activation is fine.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/layers/activations_me.py
`SwishAutoFn.forward` saves `x` and returns the TorchScript `swish_fwd(x)` (`x.mul(torch.sigmoid(x))`);
`backward` returns `swish_bwd(x, grad_output)` (`grad_output * (x_sigmoid * (1 + x * (1 - x_sigmoid)))`).
`SwishMe` wraps it. Inside an autocast step the conv before it yields a low-precision tensor, and the
Function's backward runs outside autocast on that saved tensor and the incoming gradient; the fp32
conv/BN/Linear weights are only touched by autocast-aware native ops: nothing to report (unlike custom
Functions that re-run weighted layers in backward).
Stand-in: a stem conv + BN + SwishMe + pooled head (timm's `act_layer=SwishMe`); CPU autocast with
bfloat16 stands in for CUDA fp16.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

@torch.jit.script
def swish_fwd(x):
    return x.mul(torch.sigmoid(x))

@torch.jit.script
def swish_bwd(x, grad_output):
    x_sigmoid = torch.sigmoid(x)
    return grad_output * (x_sigmoid * (1 + x * (1 - x_sigmoid)))

class SwishAutoFn(torch.autograd.Function):
    """ optimised Swish w/ memory-efficient checkpoint
    Inspired by conversation btw Jeremy Howard & Adam Pazske
    """
    @staticmethod
    def symbolic(g, x):
        return g.op("Mul", x, g.op("Sigmoid", x))

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return swish_fwd(x)

    @staticmethod
    def backward(ctx, grad_output):
        x = ctx.saved_tensors[0]
        return swish_bwd(x, grad_output)

class SwishMe(nn.Module):
    def __init__(self, inplace: bool = False):
        super(SwishMe, self).__init__()

    def forward(self, x):
        return SwishAutoFn.apply(x)

class TinyEfficientNet(nn.Module):
    def __init__(self, num_classes=10, act_layer=SwishMe):
        super().__init__()
        self.conv_stem = nn.Conv2d(3, 16, kernel_size=3, stride=2, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.act1 = act_layer(inplace=True)
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.act1(self.bn1(self.conv_stem(x)))
        x = self.global_pool(x).flatten(1)
        return self.classifier(x)

model = TinyEfficientNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
images = torch.randn(4, 3, 16, 16)
target = torch.randint(0, 10, (4,))
'''
CELL = '''
optimizer.zero_grad()
with torch.autocast("cpu", dtype=torch.bfloat16):
    output = model(images)
    loss = F.cross_entropy(output, target)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
