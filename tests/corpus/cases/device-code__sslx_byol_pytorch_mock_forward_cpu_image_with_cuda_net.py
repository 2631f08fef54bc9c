"""byol-pytorch 0.3.0: wrapping a ResNet that is already on the GPU fails in `BYOL.__init__`.

Source: https://github.com/lucidrains/byol-pytorch/pull/30
The contributor could not train on a GPU by moving the learner (`learner.to(device)`); the maintainer
found the edge case: passing a network already on CUDA, e.g. `models.resnet50(pretrained=True).cuda()`,
into `BYOL(resnet, image_size=256, hidden_layer='avgpool')` fails, because to
instantiate its lazily created projector and target encoder, `BYOL.__init__` sends a mock batch
`torch.randn(2, 3, image_size, image_size)` through the network, and that mock image is made on the
CPU while the passed-in network is on CUDA. The fix (commit 8efcc90, release 0.3.1) reads the
network's device, moves the wrapper there and makes the mock image on that device.
Stand-in: byol-pytorch 0.3.0's `NetWrapper`/`MLP`/`BYOL` (forward hook on the hidden layer, singleton
projector and target encoder) with the kornia augmentations and the MLP's BatchNorm1d left out and a small linear network in
place of the ResNet-50; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import copy
from functools import wraps
import torch
from torch import nn
import torch.nn.functional as F

def default(val, def_val):
    return def_val if val is None else val

def flatten(t):
    return t.reshape(t.shape[0], -1)

def singleton(cache_key):
    def inner_fn(fn):
        @wraps(fn)
        def wrapper(self, *args, **kwargs):
            instance = getattr(self, cache_key)
            if instance is not None:
                return instance
            instance = fn(self, *args, **kwargs)
            setattr(self, cache_key, instance)
            return instance
        return wrapper
    return inner_fn

def loss_fn(x, y):
    x = F.normalize(x, dim=-1, p=2)
    y = F.normalize(y, dim=-1, p=2)
    return 2 - 2 * (x * y).sum(dim=-1)

class MLP(nn.Module):
    def __init__(self, dim, projection_size, hidden_size=4096):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden_size), nn.ReLU(inplace=True),
                                 nn.Linear(hidden_size, projection_size))

    def forward(self, x):
        return self.net(x)

class NetWrapper(nn.Module):
    def __init__(self, net, projection_size, projection_hidden_size, layer=-2):
        super().__init__()
        self.net = net
        self.layer = layer
        self.projector = None
        self.projection_size = projection_size
        self.projection_hidden_size = projection_hidden_size
        self.hidden = None
        self.hook_registered = False

    def _find_layer(self):
        if type(self.layer) == str:
            modules = dict([*self.net.named_modules()])
            return modules.get(self.layer, None)
        elif type(self.layer) == int:
            children = [*self.net.children()]
            return children[self.layer]
        return None

    def _hook(self, _, __, output):
        self.hidden = flatten(output)

    def _register_hook(self):
        layer = self._find_layer()
        assert layer is not None, f'hidden layer ({self.layer}) not found'
        layer.register_forward_hook(self._hook)
        self.hook_registered = True

    @singleton('projector')
    def _get_projector(self, hidden):
        _, dim = hidden.shape
        projector = MLP(dim, self.projection_size, self.projection_hidden_size)
        return projector.to(hidden)

    def get_representation(self, x):
        if self.layer == -1:
            return self.net(x)
        if not self.hook_registered:
            self._register_hook()
        _ = self.net(x)
        hidden = self.hidden
        self.hidden = None
        assert hidden is not None, f'hidden layer {self.layer} never emitted an output'
        return hidden

    def forward(self, x):
        representation = self.get_representation(x)
        projector = self._get_projector(representation)
        return projector(representation)

class BYOL(nn.Module):
    def __init__(self, net, image_size, hidden_layer=-2, projection_size=256,
                 projection_hidden_size=4096, augment_fn=None, augment_fn2=None,
                 moving_average_decay=0.99):
        super().__init__()
        DEFAULT_AUG = nn.Identity()          # kornia ColorJitter/Grayscale/Flip/Blur/Crop/Normalize in 0.3.0
        self.augment1 = default(augment_fn, DEFAULT_AUG)
        self.augment2 = default(augment_fn2, self.augment1)
        self.online_encoder = NetWrapper(net, projection_size, projection_hidden_size, layer=hidden_layer)
        self.target_encoder = None
        self.online_predictor = MLP(projection_size, projection_size, projection_hidden_size)

        # send a mock image tensor to instantiate singleton parameters
        self.forward(torch.randn(2, 3, image_size, image_size))

    @singleton('target_encoder')
    def _get_target_encoder(self):
        return copy.deepcopy(self.online_encoder)

    def forward(self, x):
        image_one, image_two = self.augment1(x), self.augment2(x)
        online_proj_one = self.online_encoder(image_one)
        online_proj_two = self.online_encoder(image_two)
        online_pred_one = self.online_predictor(online_proj_one)
        online_pred_two = self.online_predictor(online_proj_two)
        with torch.no_grad():
            target_encoder = self._get_target_encoder()
            target_proj_one = target_encoder(image_one)
            target_proj_two = target_encoder(image_two)
        loss_one = loss_fn(online_pred_one, target_proj_two.detach())
        loss_two = loss_fn(online_pred_two, target_proj_one.detach())
        return (loss_one + loss_two).mean()

# stand-in for torchvision's resnet50(pretrained=True): hidden layer -2 is the pooled feature
resnet = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 128), nn.ReLU(), nn.Linear(128, 10))
resnet = resnet.cuda("cuda:0")
'''
CELL = '''
learner = BYOL(
    resnet,
    image_size = 32,
    hidden_layer = -2,
    projection_size = 64,
    projection_hidden_size = 256,
    moving_average_decay = 0.99
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["BYOL"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        self.forward(torch.randn(2, 3, image_size, image_size))",
    "        device = next(net.parameters()).device\n"
    "        self.to(device)\n"
    "        self.forward(torch.randn(2, 3, image_size, image_size, device=device))",
)
CLEAN = False
