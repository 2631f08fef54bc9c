"""RevisitingCIL (SimpleCIL/APER) with `"device": ["1"]`: `data.cuda()` in `replace_fc` feeds cuda:0 batches to a network on cuda:1.

Source: https://github.com/LAMDA-CL/RevisitingCIL/issues/10
The user ran the RevisitingCIL code base (PyCIL-style trainer, `main.py --config exps/...json`) on a
GPU other than 0 and got "RuntimeError: Expected all tensors to be on the same device, but found at
least two devices"; the maintainer answered "I think modify device to 0 could help solve this
problem." (The report is a screenshot; it does not say which learner ran, so the stand-in
follows SimpleCIL, the repository's base learner.) The learner moves `_network` to `args["device"][0]` (cuda:1 here) in `_train`, but the
code hard-codes `.cuda()` (the current device, cuda:0): `update_fc` builds the new `CosineLinear`
with `.cuda()` and `replace_fc` moves every prototype batch with `data=data.cuda()` before
`model.convnet(data)`. Stand-ins: trainer `_set_device`, `BaseLearner`, `SimpleVitNet`,
`CosineLinear` and SimpleCIL's `Learner` in the repo's names, a small linear "ViT" feature
extractor in place of the timm ViT-B/16, an in-memory `DataManager`; `.cuda()` is written
`.to("cuda:0")` (the current device), a sequential `DataLoader` stand-in (torch's draws its seed
with `.item()`); the prototype write-back uses a one-hot mean instead of
`nonzero()` and an index assignment (fake tensors cannot run data-dependent ops).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F
from torch.utils.data import Dataset

num_workers = 0
batch_size = 16

class CosineLinear(nn.Module):
    def __init__(self, in_features, out_features, sigma=True):
        super(CosineLinear, self).__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.Tensor(out_features, in_features))
        self.sigma = nn.Parameter(torch.Tensor(1))
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1. / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)
        self.sigma.data.fill_(1)

    def forward(self, input):
        out = F.linear(F.normalize(input, p=2, dim=1), F.normalize(self.weight, p=2, dim=1))
        return {'logits': self.sigma * out}

class TinyViT(nn.Module):                     # stand-in for timm vit_base_patch16_224 (pre-logits)
    def __init__(self, out_dim=32):
        super().__init__()
        self.out_dim = out_dim
        self.patch_embed = nn.Linear(3 * 8 * 8, 64)
        self.head = nn.Sequential(nn.GELU(), nn.Linear(64, out_dim))

    def forward(self, x):
        return self.head(self.patch_embed(x.flatten(1)))

class BaseNet(nn.Module):
    def __init__(self, args, pretrained):
        super(BaseNet, self).__init__()
        self.convnet = TinyViT()
        self.fc = None

    @property
    def feature_dim(self):
        return self.convnet.out_dim

class SimpleVitNet(BaseNet):
    def update_fc(self, nb_classes, nextperiod_initialization=None):
        fc = self.generate_fc(self.feature_dim, nb_classes).to("cuda:0")      # .cuda()
        if self.fc is not None:
            nb_output = self.fc.out_features
            weight = self.fc.weight.data.clone()
            fc.sigma.data = self.fc.sigma.data
            weight = torch.cat([weight, torch.zeros(nb_classes - nb_output, self.feature_dim).to("cuda:0")])
            fc.weight = nn.Parameter(weight)
        del self.fc
        self.fc = fc

    def generate_fc(self, in_dim, out_dim):
        return CosineLinear(in_dim, out_dim)

    def forward(self, x):
        x = self.convnet(x)
        return self.fc(x)

class DataLoader:                              # stand-in: torch's loader draws a seed with .item()
    def __init__(self, dataset, batch_size=1, shuffle=False, num_workers=0):
        self.dataset, self.batch_size = dataset, batch_size

    def __iter__(self):
        for start in range(0, len(self.dataset), self.batch_size):
            items = [self.dataset[i] for i in range(start, min(start + self.batch_size, len(self.dataset)))]
            idx, data, label = zip(*items)
            yield torch.tensor(idx), torch.stack(data), torch.tensor(label)

class DummyDataset(Dataset):
    def __init__(self, images, labels):
        self.images, self.labels = images, labels

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        return idx, torch.as_tensor(self.images[idx]), int(self.labels[idx])

class DataManager:
    def __init__(self, init_cls=5, increment=5, nb_tasks=4, seed=1993):
        rng = np.random.RandomState(seed)
        n_classes = init_cls + increment * (nb_tasks - 1)
        self._train_y = np.repeat(np.arange(n_classes), 6)
        self._train_x = rng.randn(len(self._train_y), 3, 8, 8).astype(np.float32)
        self._increments = [init_cls] + [increment] * (nb_tasks - 1)

    @property
    def nb_tasks(self):
        return len(self._increments)

    def get_task_size(self, task):
        return self._increments[task]

    def get_dataset(self, indices, source, mode):
        keep = np.isin(self._train_y, indices)
        return DummyDataset(self._train_x[keep], self._train_y[keep])

class BaseLearner(object):
    def __init__(self, args):
        self._cur_task = -1
        self._known_classes = 0
        self._total_classes = 0
        self._network = None
        self._device = args["device"][0]
        self._multiple_gpus = args["device"]

class Learner(BaseLearner):
    def __init__(self, args):
        super().__init__(args)
        self._network = SimpleVitNet(args, True)
        self.args = args

    def after_task(self):
        self._known_classes = self._total_classes

    def replace_fc(self, trainloader, model, args):
        model = model.eval()
        embedding_list = []
        label_list = []
        with torch.no_grad():
            for i, batch in enumerate(trainloader):
                (_, data, label) = batch
                data = data.to("cuda:0")                 # data=data.cuda()
                label = label.to("cuda:0")               # label=label.cuda()
                embedding = model.convnet(data)
                embedding_list.append(embedding.cpu())
                label_list.append(label.cpu())
        embedding_list = torch.cat(embedding_list, dim=0)
        label_list = torch.cat(label_list, dim=0)
        class_list = np.unique(self.train_dataset.labels)
        onehot = (label_list[:, None] == torch.as_tensor(class_list)[None, :]).float()
        protos = onehot.t() @ embedding_list / onehot.sum(0)[:, None]
        weight = self._network.fc.weight.data
        self._network.fc.weight.data = torch.cat([weight[:self._known_classes], protos.to(weight.device)])
        return model

    def incremental_train(self, data_manager):
        self._cur_task += 1
        self._total_classes = self._known_classes + data_manager.get_task_size(self._cur_task)
        self._network.update_fc(self._total_classes)
        train_dataset_for_protonet = data_manager.get_dataset(np.arange(self._known_classes, self._total_classes), source="train", mode="test")
        self.train_dataset = train_dataset_for_protonet
        self.train_loader_for_protonet = DataLoader(train_dataset_for_protonet, batch_size=batch_size, shuffle=True, num_workers=num_workers)
        if len(self._multiple_gpus) > 1:
            self._network = nn.DataParallel(self._network, self._multiple_gpus)
        self._train(self.train_loader_for_protonet)
        if len(self._multiple_gpus) > 1:
            self._network = self._network.module

    def _train(self, train_loader_for_protonet):
        self._network.to(self._device)
        self.replace_fc(train_loader_for_protonet, self._network, None)

def _set_device(args):
    device_type = args["device"]
    gpus = []
    for device in device_type:
        if device_type == -1:
            device = torch.device("cpu")
        else:
            device = torch.device("cuda:{}".format(device))
        gpus.append(device)
    args["device"] = gpus

args = {"model_name": "simplecil", "convnet_type": "vit-b-p16", "device": ["1"], "seed": 1993,
        "init_cls": 5, "increment": 5}
_set_device(args)
data_manager = DataManager(args["init_cls"], args["increment"])
model = Learner(args)
'''
CELL = '''
model.incremental_train(data_manager)
model.after_task()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model._network"]
FIX = "namespace"
REFERENCE_FIX = '''
model._device = torch.device("cuda:0")          # "modify device to 0"
model._multiple_gpus = [model._device]
model._network.to(model._device)
'''
REFERENCE_EDIT = None
CLEAN = False
