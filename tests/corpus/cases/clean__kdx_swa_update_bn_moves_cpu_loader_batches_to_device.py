"""Look-alike: `torch.optim.swa_utils.update_bn(train_loader, swa_model, device)` with a CPU loader and the SWA model on the GPU.

Source: https://github.com/hoya012/swa-tutorials-pytorch/issues/2
The tutorial moved the SWA model to the CPU for `update_bn` and back to cuda afterwards; the issue
points out that `update_bn` takes a `device` argument and moves every batch to it itself, so the
averaged model can stay on the GPU while the DataLoader yields CPU `(images, labels)` tuples.
Stand-ins: `update_bn` as upstream, `AveragedModel` with upstream's update (its deepcopy written
as a fresh instance loaded with the same state, fake tensors cannot be deep-copied); a small CNN with BatchNorm, the SWA copy made on the
CPU and moved with the model to the second device (meta stands in for cuda).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

@torch.no_grad()
def update_bn(loader, model, device=None):          # torch.optim.swa_utils.update_bn
    momenta = {}
    for module in model.modules():
        if isinstance(module, nn.modules.batchnorm._BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    was_training = model.training
    model.train()
    # upstream sets module.momentum = None here (cumulative average); BatchNorm then reads
    # float(num_batches_tracked), which a meta tensor cannot give, so the default momentum is kept
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for bn_module in momenta.keys():
        bn_module.momentum = momenta[bn_module]
    model.train(was_training)

def make_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))

class AveragedModel(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.module = make_model()                      # upstream: deepcopy(model)
        self.module.load_state_dict(model.state_dict())
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long))

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    @torch.no_grad()
    def update_parameters(self, model):
        for p_swa, p_model in zip(self.module.parameters(), model.parameters()):
            p_model_ = p_model.detach().to(p_swa.device)
            if self.n_averaged == 0:
                p_swa.detach().copy_(p_model_)
            else:
                p_swa.detach().add_((p_model_ - p_swa.detach()) / (self.n_averaged + 1))
        self.n_averaged += 1

model = make_model()
swa_model = AveragedModel(model)
device = torch.device("meta")          # cuda in the tutorial
model.to(device)
swa_model.to(device)

train_loader = [(torch.randn(4, 3, 16, 16), torch.randint(0, 10, (4,))) for _ in range(3)]
'''
CELL = '''
update_bn(train_loader, swa_model, device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
