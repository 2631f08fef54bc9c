"""FACIL on Windows: the per-task labels are int32 NumPy scalars, so `cross_entropy` in the finetuning criterion rejects the targets.

Source: https://github.com/mmasana/FACIL/issues/4
Users running `python -u src/main_incremental.py --approach finetuning --network resnet34` on
Windows 10 got "RuntimeError: Expected object of scalar type Long but got scalar type Int for
argument #2" in the loss; the maintainer answered that "in Linux it should work fine", i.e. the
cause is the platform's default integer. `memory_dataset.get_data` computes every label as
`this_label - init_class[this_task]` with `init_class` built from `np.array(...)`/`np.cumsum`,
whose default integer is int32 on Windows (int64 on Linux), and `get_loaders` adds the offsets in a
list comprehension, so `MemoryDataset.labels` is a list of int32 scalars and each collated `targets`
batch is int32; `targets - self.model.task_offset[t]` keeps int32 (a 0-dim int64 does not promote
it). Stand-ins: FACIL's `get_data` (no validation split, `np.int32` written where NumPy's default
int is int32 on Windows), `MemoryDataset` (a plain array-to-tensor transform instead of PIL +
torchvision), `LLL_Net`, and the finetuning `Appr` with `train`/`train_epoch`/`criterion`
(one epoch, no eval, no scheduler); a small MLP in place of resnet34; random 8x8 images for CIFAR-100.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import Dataset, DataLoader

def get_data(trn_data, num_tasks, nc_first_task=None):
    data = {}
    taskcla = []
    num_classes = len(np.unique(trn_data['y']))
    class_order = list(range(num_classes))
    cpertask = np.array([num_classes // num_tasks] * num_tasks, dtype=np.int32)   # default int on Windows
    cpertask_cumsum = np.cumsum(cpertask)
    init_class = np.concatenate(([0], cpertask_cumsum[:-1])).astype(np.int32)
    for tt in range(num_tasks):
        data[tt] = {'name': 'task-' + str(tt), 'trn': {'x': [], 'y': []}}
    for this_image, this_label in zip(trn_data['x'], trn_data['y']):
        this_label = class_order.index(this_label)
        this_task = (this_label >= cpertask_cumsum).sum()
        data[this_task]['trn']['x'].append(this_image)
        data[this_task]['trn']['y'].append(this_label - init_class[this_task])
    for tt in range(num_tasks):
        data[tt]['ncla'] = len(np.unique(data[tt]['trn']['y']))
        data[tt]['trn']['x'] = np.asarray(data[tt]['trn']['x'])
    for t in range(num_tasks):
        taskcla.append((t, data[t]['ncla']))
    return data, taskcla, class_order

class MemoryDataset(Dataset):
    def __init__(self, data, transform, class_indices=None):
        self.labels = data['y']
        self.images = data['x']
        self.transform = transform
        self.class_indices = class_indices

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        x = self.transform(self.images[index])
        y = self.labels[index]
        return x, y

def trn_transform(img):                        # ToTensor + Normalize stand-in
    return torch.from_numpy(img).permute(2, 0, 1).float().div(255.0)

def get_loaders(trn_data, num_tasks, batch_size):
    all_data, taskcla, class_indices = get_data(trn_data, num_tasks)
    trn_load = []
    offset = 0
    for task in range(num_tasks):
        all_data[task]['trn']['y'] = [label + offset for label in all_data[task]['trn']['y']]
        trn_load.append(DataLoader(MemoryDataset(all_data[task]['trn'], trn_transform, class_indices),
                                   batch_size=batch_size, shuffle=True))
        offset += taskcla[task][1]
    return trn_load, taskcla

class SmallNet(nn.Module):                     # stand-in for FACIL's resnet34 (head_var = 'fc')
    def __init__(self):
        super().__init__()
        self.head_var = 'fc'
        self.features = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU())
        self.fc = nn.Sequential()

    def forward(self, x):
        return self.fc(self.features(x))

class LLL_Net(nn.Module):
    def __init__(self, model, remove_existing_head=False):
        super(LLL_Net, self).__init__()
        self.model = model
        self.out_size = 64
        self.heads = nn.ModuleList()
        self.task_cls = []
        self.task_offset = []

    def add_head(self, num_outputs):
        self.heads.append(nn.Linear(self.out_size, num_outputs))
        self.task_cls = torch.tensor([head.out_features for head in self.heads])
        self.task_offset = torch.cat([torch.LongTensor(1).zero_(), self.task_cls.cumsum(0)[:-1]])

    def forward(self, x, return_features=False):
        x = self.model(x)
        return [head(x) for head in self.heads]

class Appr:                                    # approach/finetuning.py on Inc_Learning_Appr
    def __init__(self, model, device, nepochs=1, lr=0.1, clipgrad=10000, all_outputs=False):
        self.model, self.device, self.nepochs, self.lr, self.clipgrad = model, device, nepochs, lr, clipgrad
        self.all_out = all_outputs
        self.exemplars_dataset = []

    def _get_optimizer(self):
        return torch.optim.SGD(self.model.parameters(), lr=self.lr)

    def train(self, t, trn_loader, val_loader):
        self.optimizer = self._get_optimizer()
        for e in range(self.nepochs):
            self.train_epoch(t, trn_loader)

    def train_epoch(self, t, trn_loader):
        self.model.train()
        for images, targets in trn_loader:
            outputs = self.model(images.to(self.device))
            loss = self.criterion(t, outputs, targets.to(self.device))
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clipgrad)
            self.optimizer.step()

    def criterion(self, t, outputs, targets):
        if self.all_out or len(self.exemplars_dataset) > 0:
            return torch.nn.functional.cross_entropy(torch.cat(outputs, dim=1), targets)
        return torch.nn.functional.cross_entropy(outputs[t], targets - self.model.task_offset[t])

device = 'cpu'
rng = np.random.RandomState(0)
trn_data = {'x': rng.randint(0, 255, size=(200, 8, 8, 3)).astype(np.uint8),
            'y': [int(c) for c in np.repeat(np.arange(20), 10)]}
trn_loader, taskcla = get_loaders(trn_data, num_tasks=4, batch_size=64)
val_loader = [None] * len(taskcla)
net = LLL_Net(SmallNet(), remove_existing_head=True)
appr = Appr(net, device)
t = 0
net.add_head(taskcla[t][1])
net.to(device)
'''
CELL = '''
appr.train(t, trn_loader[t], val_loader[t])
'''
EXPECT_ERROR = ("expected target dtype to be Long or Byte, but got Int",
                "expected scalar type Long but found Int")
CULPRITS = ["trn_loader"]
FIX = "namespace"
REFERENCE_FIX = '''
for dl in trn_loader:                           # the int64 labels the same code yields on Linux
    dl.dataset.labels = np.asarray(dl.dataset.labels, dtype=np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
