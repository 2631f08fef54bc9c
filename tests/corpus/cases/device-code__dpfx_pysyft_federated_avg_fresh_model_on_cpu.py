"""PySyft `utils.federated_avg()` over models on the GPU: the sum starts from a freshly built model on the CPU.

Source: https://github.com/OpenMined/PySyft/issues/3863
The reporter averaged two CNNs with `utils.federated_avg(dict(enumerate([net1, net2])))`; besides wrong
averages (the fresh model's random init is added in), the follow-up notes it fails once the models live
on the GPU. `federated_avg` builds `model = type(model_list[0])()` (CPU) and `add_model` does
`param1.data + dict_params2[name1].data` across devices. The fix (PR #4595) starts from a copy of the
first model instead. Stand-in: syft's `add_model` / `scale_model` / `federated_avg` as in 0.2.x, without
the hook; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("meta")   # the GPU

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)

def add_model(dst_model, src_model):
    params1 = src_model.named_parameters()
    params2 = dst_model.named_parameters()
    dict_params2 = dict(params2)
    with torch.no_grad():
        for name1, param1 in params1:
            if name1 in dict_params2:
                dict_params2[name1].set_(param1.data + dict_params2[name1].data)
    return dst_model

def scale_model(model, scale):
    params = model.named_parameters()
    dict_params = dict(params)
    with torch.no_grad():
        for name, param in dict_params.items():
            dict_params[name].set_(dict_params[name].data * scale)
    return model

def federated_avg(models):
    nr_models = len(models)
    model_list = list(models.values())
    model = type(model_list[0])()
    for i in range(nr_models):
        model = add_model(model, model_list[i])
    model = scale_model(model, 1.0 / nr_models)
    return model

net1 = Net().to(device)
net2 = Net().to(device)
'''
CELL = '''
avg_net = federated_avg(dict(enumerate([net1, net2])))
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["federated_avg"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("model = type(model_list[0])()",
                  "model = type(model_list[0])().to(next(model_list[0].parameters()).device)")
CLEAN = False
