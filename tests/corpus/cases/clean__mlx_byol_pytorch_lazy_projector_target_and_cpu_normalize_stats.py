"""Look-alike: byol-pytorch builds its projector and target encoder lazily and normalizes cuda images with CPU mean/std tensors.

Source: https://github.com/lucidrains/byol-pytorch/blob/master/byol_pytorch/byol_pytorch.py
`BYOL(resnet, image_size, hidden_layer='avgpool')` with the resnet already on cuda: the wrapper
calls `self.to(get_module_device(net))` and sends a mock image through itself; the projector MLP
is created inside the first forward and moved with `projector.to(hidden)`, the target encoder is a
lazily `copy.deepcopy`-ed online encoder (`@singleton('target_encoder')`), and the default
augmentation ends with `T.Normalize(mean=torch.tensor([...]), std=torch.tensor([...]))` whose CPU
tensors torchvision converts with `torch.as_tensor(mean, dtype=..., device=tensor.device)`.
Plain CPU tensors and modules created outside `Module.to()` all end up on the images' device. It runs.
Stand-ins: the BYOL/NetWrapper/EMA code as in the file, torchvision's Normalize and horizontal flip
reduced to their tensor ops (the colour/blur/crop augmentations dropped), the MLP's BatchNorm1d
without running stats (the simulated GPU cannot update them in place), a tiny resnet-like net.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

def get_module_device(module):
    return next(module.parameters()).device

def set_requires_grad(model, val):
    for p in model.parameters():
        p.requires_grad = val

def loss_fn(x, y):
    x = F.normalize(x, dim=-1, p=2)
    y = F.normalize(y, dim=-1, p=2)
    return 2 - 2 * (x * y).sum(dim=-1)

class Normalize(nn.Module):
    """Stand-in for torchvision.transforms.Normalize on a tensor batch (F.normalize)."""
    def __init__(self, mean, std):
        super().__init__()
        self.mean, self.std = mean, std

    def forward(self, tensor):
        mean = torch.as_tensor(self.mean, dtype=tensor.dtype, device=tensor.device)
        std = torch.as_tensor(self.std, dtype=tensor.dtype, device=tensor.device)
        return (tensor - mean.view(-1, 1, 1)) / std.view(-1, 1, 1)

class RandomHorizontalFlip(nn.Module):
    def forward(self, x):
        return x.flip(-1)

class EMA():
    def __init__(self, beta):
        super().__init__()
        self.beta = beta

    def update_average(self, old, new):
        if old is None:
            return new
        return old * self.beta + (1 - self.beta) * new

def update_moving_average(ema_updater, ma_model, current_model):
    for current_params, ma_params in zip(current_model.parameters(), ma_model.parameters()):
        old_weight, up_weight = ma_params.data, current_params.data
        ma_params.data = ema_updater.update_average(old_weight, up_weight)

def MLP(dim, projection_size, hidden_size=4096):
    return nn.Sequential(nn.Linear(dim, hidden_size), nn.BatchNorm1d(hidden_size, track_running_stats=False),
                         nn.ReLU(inplace=True), nn.Linear(hidden_size, projection_size))

class NetWrapper(nn.Module):
    def __init__(self, net, projection_size, projection_hidden_size, layer=-2):
        super().__init__()
        self.net = net
        self.layer = layer
        self.projector = None
        self.projection_size = projection_size
        self.projection_hidden_size = projection_hidden_size
        self.hidden = {}
        self.hook_registered = False

    def _find_layer(self):
        if type(self.layer) == str:
            modules = dict([*self.net.named_modules()])
            return modules.get(self.layer, None)
        return [*self.net.children()][self.layer]

    def _hook(self, _, input, output):
        device = input[0].device
        self.hidden[device] = flatten(output)

    def _register_hook(self):
        layer = self._find_layer()
        layer.register_forward_hook(self._hook)
        self.hook_registered = True

    @singleton('projector')
    def _get_projector(self, hidden):
        _, dim = hidden.shape
        projector = MLP(dim, self.projection_size, self.projection_hidden_size)
        return projector.to(hidden)

    def get_representation(self, x):
        if not self.hook_registered:
            self._register_hook()
        self.hidden.clear()
        _ = self.net(x)
        hidden = self.hidden[x.device]
        self.hidden.clear()
        return hidden

    def forward(self, x, return_projection=True):
        representation = self.get_representation(x)
        if not return_projection:
            return representation
        projector = self._get_projector(representation)
        return projector(representation), representation

class BYOL(nn.Module):
    def __init__(self, net, image_size, hidden_layer=-2, projection_size=256,
                 projection_hidden_size=4096, augment_fn=None, augment_fn2=None,
                 moving_average_decay=0.99, use_momentum=True):
        super().__init__()
        self.net = net
        DEFAULT_AUG = torch.nn.Sequential(
            RandomHorizontalFlip(),
            Normalize(mean=torch.tensor([0.485, 0.456, 0.406]), std=torch.tensor([0.229, 0.224, 0.225])),
        )
        self.augment1 = default(augment_fn, DEFAULT_AUG)
        self.augment2 = default(augment_fn2, self.augment1)
        self.online_encoder = NetWrapper(net, projection_size, projection_hidden_size, layer=hidden_layer)
        self.use_momentum = use_momentum
        self.target_encoder = None
        self.target_ema_updater = EMA(moving_average_decay)
        self.online_predictor = MLP(projection_size, projection_size, projection_hidden_size)

        device = get_module_device(net)
        self.to(device)
        self.forward(torch.randn(2, 3, image_size, image_size, device=device))

    @singleton('target_encoder')
    def _get_target_encoder(self):
        target_encoder = copy.deepcopy(self.online_encoder)
        set_requires_grad(target_encoder, False)
        return target_encoder

    def update_moving_average(self):
        update_moving_average(self.target_ema_updater, self.target_encoder, self.online_encoder)

    def forward(self, x, return_embedding=False, return_projection=True):
        if return_embedding:
            return self.online_encoder(x, return_projection=return_projection)
        image_one, image_two = self.augment1(x), self.augment2(x)
        online_proj_one, _ = self.online_encoder(image_one)
        online_proj_two, _ = self.online_encoder(image_two)
        online_pred_one = self.online_predictor(online_proj_one)
        online_pred_two = self.online_predictor(online_proj_two)
        with torch.no_grad():
            target_encoder = self._get_target_encoder() if self.use_momentum else self.online_encoder
            target_proj_one, _ = target_encoder(image_one)
            target_proj_two, _ = target_encoder(image_two)
        loss_one = loss_fn(online_pred_one, target_proj_two.detach())
        loss_two = loss_fn(online_pred_two, target_proj_one.detach())
        return (loss_one + loss_two).mean()

class TinyResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, 3, stride=2, padding=1)
        self.relu = nn.ReLU()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = self.avgpool(self.relu(self.conv1(x)))
        return self.fc(torch.flatten(x, 1))

resnet = TinyResNet().to("cuda:0")
learner = BYOL(resnet, image_size=32, hidden_layer='avgpool', projection_size=32, projection_hidden_size=64)

def sample_unlabelled_images():
    return torch.randn(8, 3, 32, 32)
'''
CELL = '''
images = sample_unlabelled_images().to("cuda:0")
loss = learner(images)
learner.update_moving_average()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
