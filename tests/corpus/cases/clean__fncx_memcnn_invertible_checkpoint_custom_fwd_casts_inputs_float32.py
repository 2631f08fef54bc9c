"""Look-alike: memcnn's `InvertibleCheckpointFunction` after the mixed-precision fix casts its inputs to float32 itself, so a bfloat16 activation meets fp32 weights only in name.

Source: https://github.com/silvandeleemput/memcnn/blob/master/memcnn/models/revop.py
Since PR #60, `InvertibleCheckpointFunction.forward` is decorated with `@custom_fwd(cast_inputs=torch.float32)`
and `backward` with `@custom_bwd`: under autocast the wrapped coupling receives the previous layer's
low-precision output, the Function casts it (and runs forward/backward recompute) in float32, and the
training step runs. A low-precision tensor flowing into a block of fp32 conv weights is expected here.
Stand-in: memcnn's Function/wrapper/AdditiveCoupling as in revop.py and additive.py; CPU autocast with
bfloat16 stands in for CUDA fp16, so the decorators are `torch.amp.custom_fwd/custom_bwd(device_type="cpu")`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import copy
import numpy as np
import torch
import torch.nn as nn

pytorch_version_one_and_above = True

class InvertibleCheckpointFunction(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, fn, fn_inverse, keep_input, num_bwd_passes, num_inputs, *inputs_and_weights):
        # store in context
        ctx.fn = fn
        ctx.fn_inverse = fn_inverse
        ctx.keep_input = keep_input
        ctx.weights = inputs_and_weights[num_inputs:]
        ctx.num_bwd_passes = num_bwd_passes
        ctx.num_inputs = num_inputs

        inputs = inputs_and_weights[:num_inputs]
        ctx.input_requires_grad = [element.requires_grad for element in inputs]

        with torch.no_grad():
            # Makes a detached copy which shares the storage
            x = [element.detach() for element in inputs]
            outputs = ctx.fn(*x)

        if not isinstance(outputs, tuple):
            outputs = (outputs,)

        # Detaches y in-place (inbetween computations can now be discarded)
        detached_outputs = tuple([element.detach_() for element in outputs])

        # store these tensor nodes for backward pass
        ctx.inputs = [inputs] * num_bwd_passes
        ctx.outputs = [detached_outputs] * num_bwd_passes

        return detached_outputs

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, *grad_outputs):  # pragma: no cover
        inputs = ctx.inputs.pop()
        outputs = ctx.outputs.pop()

        # recompute input if necessary
        if not ctx.keep_input:
            with torch.no_grad():
                inputs_inverted = ctx.fn_inverse(*outputs)
                if not isinstance(inputs_inverted, tuple):
                    inputs_inverted = (inputs_inverted,)
                for element_original, element_inverted in zip(inputs, inputs_inverted):
                    element_original.storage().resize_(int(np.prod(element_original.size())))
                    element_original.set_(element_inverted)

        # compute gradients
        with torch.set_grad_enabled(True):
            detached_inputs = tuple([element.detach().requires_grad_() for element in inputs])
            temp_output = ctx.fn(*detached_inputs)
        if not isinstance(temp_output, tuple):
            temp_output = (temp_output,)

        gradients = torch.autograd.grad(outputs=temp_output, inputs=detached_inputs + ctx.weights, grad_outputs=grad_outputs)

        return (None, None, None, None, None) + gradients

class InvertibleModuleWrapper(nn.Module):
    def __init__(self, fn, keep_input=False, keep_input_inverse=False, num_bwd_passes=1, disable=False):
        super(InvertibleModuleWrapper, self).__init__()
        self.disable = disable
        self.keep_input = keep_input
        self.keep_input_inverse = keep_input_inverse
        self.num_bwd_passes = num_bwd_passes
        self._fn = fn

    def forward(self, *xin):
        if not self.disable:
            y = InvertibleCheckpointFunction.apply(
                self._fn.forward,
                self._fn.inverse,
                self.keep_input,
                self.num_bwd_passes,
                len(xin),
                *(xin + tuple([p for p in self._fn.parameters() if p.requires_grad])))
        else:
            y = self._fn(*xin)
        if isinstance(y, tuple) and len(y) == 1:
            return y[0]
        return y

class AdditiveCoupling(nn.Module):
    def __init__(self, Fm, Gm=None, implementation_fwd=-1, implementation_bwd=-1, split_dim=1):
        super(AdditiveCoupling, self).__init__()
        if Gm is None:
            Gm = copy.deepcopy(Fm)
        self.Gm = Gm
        self.Fm = Fm
        self.split_dim = split_dim

    def forward(self, x):
        x1, x2 = torch.chunk(x, 2, dim=self.split_dim)
        x1, x2 = x1.contiguous(), x2.contiguous()
        fmd = self.Fm.forward(x2)
        y1 = x1 + fmd
        gmd = self.Gm.forward(y1)
        y2 = x2 + gmd
        out = torch.cat([y1, y2], dim=self.split_dim)
        return out

    def inverse(self, y):
        y1, y2 = torch.chunk(y, 2, dim=self.split_dim)
        y1, y2 = y1.contiguous(), y2.contiguous()
        gmd = self.Gm.forward(y1)
        x2 = y2 - gmd
        fmd = self.Fm.forward(x2)
        x1 = y1 - fmd
        x = torch.cat([x1, x2], dim=self.split_dim)
        return x

class ExampleOperation(nn.Module):
    def __init__(self, channels):
        super(ExampleOperation, self).__init__()
        self.seq = nn.Sequential(
            nn.Conv2d(in_channels=channels, out_channels=channels, kernel_size=(3, 3), padding=1),
            nn.BatchNorm2d(num_features=channels),
            nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.seq(x)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.inv_block = InvertibleModuleWrapper(
            fn=AdditiveCoupling(Fm=ExampleOperation(4), Gm=ExampleOperation(4)),
            keep_input=True, keep_input_inverse=True)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = self.inv_block(x)
        return self.fc(x.mean(dim=(2, 3)))

USE_AMP = True
model = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs = torch.randn(4, 3, 8, 8)
labels = torch.randint(0, 10, (4,))
'''
CELL = '''
optimizer.zero_grad()
with torch.autocast("cpu", dtype=torch.bfloat16, enabled=USE_AMP):   # torch.cuda.amp.autocast()
    outputs = model(inputs)
    loss = criterion(outputs, labels)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
