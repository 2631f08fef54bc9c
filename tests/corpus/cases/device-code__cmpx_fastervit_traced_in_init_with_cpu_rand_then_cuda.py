"""FasterViT traced inside a wrapper's `__init__` with a CPU `torch.rand` example, then moved to CUDA: tensors the trace computed from the example input stay CPU constants.

Source: https://github.com/NVlabs/FasterViT/issues/147
"Torch jit bug": the user's `MyModule.__init__` does
`self.model = torch.jit.trace(self.model, torch.rand(1, 3, height, width))` on a
`faster_vit_0_any_res` model built with `resolution=[height, width]`; running the (scripted) wrapper
on the GPU raises "Expected all tensors to be on the same device, cuda:0 and cpu". The trace was
recorded on the CPU: tensors that the any-resolution model derives from the input size during
`forward` (the relative-position coordinate grid) become CPU constants of the traced graph, which
`.to("cuda")` does not move. Tracing with the example input on the device the model will run on
avoids the baked CPU constants.
Stand-in: the tracer records the position grid as a constant on the example input's device (a plain
attribute, as TorchScript constants are not moved by `.to()`); the backbone is a conv stem + head.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class FasterVit(nn.Module):
    def __init__(self, classes=1, height=64, width=64, dim=16):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=16, stride=16)
        self.pos_proj = nn.Linear(2, dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.patch_embed(x)
        h, w = x.shape[-2:]
        coords = torch.stack(torch.meshgrid(torch.arange(h, device=x.device), torch.arange(w, device=x.device),
                                            indexing="ij"), -1).reshape(-1, 2).float()
        x = x.flatten(2).transpose(1, 2) + self.pos_proj(coords)
        return self.head(x.mean(1))

class TracedFasterVit(nn.Module):          # what torch.jit.trace(model, example) recorded
    def __init__(self, model, example):
        super().__init__()
        self.patch_embed, self.pos_proj, self.head = model.patch_embed, model.pos_proj, model.head
        h, w = example.shape[-2] // 16, example.shape[-1] // 16
        self.coords = torch.stack(torch.meshgrid(torch.arange(h, device=example.device),
                                                 torch.arange(w, device=example.device),
                                                 indexing="ij"), -1).reshape(-1, 2).float()   # constant

    def forward(self, x):
        x = self.patch_embed(x)
        x = x.flatten(2).transpose(1, 2) + self.pos_proj(self.coords)
        return self.head(x.mean(1))

class MyModule(nn.Module):
    def __init__(self, model, classes, height, width):
        super().__init__()
        self.classes = classes
        self.model = model.eval()
        self.height = height
        self.width = width
        self.model = TracedFasterVit(self.model, torch.rand(1, 3, height, width))   # torch.jit.trace(self.model, torch.rand(1, 3, height, width))

    def forward(self, input):
        return torch.sigmoid(self.model(input))

model = FasterVit()
my_module = MyModule(model, classes=1, height=64, width=64)
my_module = my_module.to("cuda:0")
image = torch.rand(1, 3, 64, 64, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    pred = my_module(image)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["my_module.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.model = TracedFasterVit(self.model, torch.rand(1, 3, height, width))",
                  "self.model = TracedFasterVit(self.model, torch.rand(1, 3, height, width, device=\"cuda:0\"))")
CLEAN = False
