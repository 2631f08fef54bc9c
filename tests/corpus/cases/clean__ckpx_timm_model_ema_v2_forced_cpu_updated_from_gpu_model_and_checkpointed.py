"""Look-alike: timm `ModelEmaV2(model, device='cpu')` keeps the EMA copy on the CPU while the model trains on the GPU; `_update` moves each model tensor first.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/utils/model_ema.py
With `--model-ema --model-ema-force-cpu`, timm's train.py builds
`ModelEmaV2(model, decay=args.model_ema_decay, device='cpu')` after `model.cuda()`. The EMA module is a
deepcopy moved to the CPU; `_update` iterates `zip(self.module.state_dict().values(),
model.state_dict().values())` and does `model_v = model_v.to(device=self.device)` before
`ema_v.copy_(update_fn(ema_v, model_v))`. Each step therefore mixes cuda:0 parameters and CPU EMA
tensors on purpose, and the checkpoint written by `CheckpointSaver` holds both `state_dict` (GPU)
and `state_dict_ema` (CPU): nothing to report. Stand-ins: the model is a small conv classifier; under
fake_cuda the backward is replaced by gradients written on the parameters; `.cuda()` is written
`.to("cuda:0")`; the EMA is built by moving a fresh copy (copy.deepcopy of a fake module is not
available) loaded with the model's weights.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ModelEmaV2(nn.Module):
    """timm.utils.ModelEmaV2 (the deepcopy replaced by a fresh copy loaded from the model)."""
    def __init__(self, model, decay=0.9999, device=None, make_copy=None):
        super(ModelEmaV2, self).__init__()
        self.module = make_copy()
        self.module.eval()
        self.decay = decay
        self.device = device  # perform ema on different device from model if set
        if self.device is not None:
            self.module.to(device=device)
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                ema_v.copy_(model_v.to(device=ema_v.device))

    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                if self.device is not None:
                    model_v = model_v.to(device=self.device)
                ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1. - self.decay) * m)

    def set(self, model):
        self._update(model, update_fn=lambda e, m: m)

def unwrap_model(model):
    return model.module if hasattr(model, "module") else model

def get_state_dict(model, unwrap_fn=unwrap_model):
    return unwrap_fn(model).state_dict()

class Net(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv_stem = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.classifier = nn.Linear(16, num_classes)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv_stem(x)))
        return self.classifier(x.mean((2, 3)))

class args:
    model_ema = True
    model_ema_force_cpu = True
    model_ema_decay = 0.9998

model = Net()
model.to("cuda:0")   # model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model_ema = ModelEmaV2(model, decay=args.model_ema_decay,
                       device='cpu' if args.model_ema_force_cpu else None, make_copy=Net)
train_loss_fn = nn.CrossEntropyLoss().to("cuda:0")
input = torch.randn(8, 3, 32, 32).to("cuda:0")
target = torch.randint(0, 10, (8,)).to("cuda:0")
model.eval()  # BatchNorm running stats are not updated in the simulated step
'''
CELL = '''
output = model(input)
loss = train_loss_fn(output, target)
optimizer.zero_grad()
for p in model.parameters():          # loss.backward() stand-in
    p.grad = torch.full_like(p, 1e-3)
optimizer.step()
if model_ema is not None:
    model_ema.update(model)
save_state = {
    'epoch': 1,
    'arch': 'net',
    'state_dict': get_state_dict(model, unwrap_model),
    'optimizer': optimizer.state_dict(),
    'state_dict_ema': get_state_dict(model_ema, unwrap_model),
}
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
