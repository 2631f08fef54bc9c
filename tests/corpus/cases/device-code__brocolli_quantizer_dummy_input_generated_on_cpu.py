"""brocolli PytorchQuantizer on a CUDA model: the calibration dummy input is generated on the CPU.

Source: https://github.com/inisis/brocolli/issues/52
"when i set model.cuda() and use the input_data.cuda() then the error raised: RuntimeError: Input
type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same". The error
comes from `dummy_input = self.gen_input_tensor(self.input_shape)` inside the quantizer, which builds
`torch.rand(shape).to(torch.float32)`: a CPU tensor, whatever device the model and the user's data
are on. Stand-in: PytorchQuantizer reduced to tracing the model with the generated dummy input.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class PytorchQuantizer:
    def __init__(self, model, input_shape):
        self.model = model
        self.input_shape = input_shape
        self.observed = {}

    def gen_input_tensor(self, shapes):
        input_tensor = []
        for shape in shapes:
            if isinstance(shape, (tuple, list)):
                if all(isinstance(element, int) for element in shape):
                    input_tensor.append(torch.rand(shape).to(torch.float32))
                else:
                    input_tensor.append(self.gen_input_tensor(shape))
            else:
                input_tensor.append(torch.rand(shape).to(torch.float32))
        return input_tensor

    def _hook(self, name):
        def fn(module, inp, out):
            self.observed[name] = (out.amin(), out.amax())
        return fn

    def fuse(self):
        dummy_input = self.gen_input_tensor(self.input_shape)
        handles = [m.register_forward_hook(self._hook(n)) for n, m in self.model.named_modules() if n]
        with torch.no_grad():
            self.model(*dummy_input)
        for h in handles:
            h.remove()

    def prepare_calibration(self):
        self.fuse()

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        return self.fc(x.mean(dim=(2, 3)))

model = Net().to("cuda:0").eval()          # model.cuda()
input_data = torch.rand(4, 3, 32, 32).to("cuda:0")
pytorch_quantizer = PytorchQuantizer(model, [(1, 3, 32, 32)])
'''
CELL = '''
pytorch_quantizer.prepare_calibration()
'''
EXPECT_ERROR = ("Input type", "Expected all tensors to be on the same device")
CULPRITS = ["pytorch_quantizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input_tensor.append(torch.rand(shape).to(torch.float32))\n                else:",
                  "input_tensor.append(torch.rand(shape, device=next(self.model.parameters()).device).to(torch.float32))\n                else:")
CLEAN = False
