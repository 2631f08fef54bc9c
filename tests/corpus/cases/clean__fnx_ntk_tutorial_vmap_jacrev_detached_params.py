"""torch.func neural-tangent-kernel tutorial: `vmap(jacrev(fnet_single))` over detached parameters of a CNN on the device.

Source: https://pytorch.org/tutorials/intermediate/neural_tangent_kernels.html
The tutorial puts the CNN and `x_train`/`x_test` on the device, takes `params = {k: v.detach() for k,
v in net.named_parameters()}`, defines `fnet_single(params, x)` with `functional_call(net, params,
(x.unsqueeze(0),))`, and contracts `vmap(jacrev(fnet_single), (None, 0))(params, x1)` against the same
for `x2` with einsum. Look-alike: parameter copies outside the module, Jacobians built inside nested
transforms; everything shares one device and it runs. SIM meta: "meta" plays cuda; sizes reduced.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, jacrev

device = "meta"              # 'cuda' in the tutorial

class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, (3, 3))
        self.conv2 = nn.Conv2d(8, 8, (3, 3))
        self.conv3 = nn.Conv2d(8, 8, (3, 3))
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = self.conv3(x)
        x = x.mean((2, 3))
        x = self.fc(x)
        return x

x_train = torch.randn(6, 3, 16, 16, device=device)
x_test = torch.randn(3, 3, 16, 16, device=device)
net = CNN().to(device)
params = {k: v.detach() for k, v in net.named_parameters()}

def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)

def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    result = torch.stack([torch.einsum('Naf,Mbf->NMab', j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result
'''
CELL = '''
result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
