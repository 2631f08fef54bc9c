"""Look-alike: DivideMix refines labels with GMM clean-probabilities that arrive as a CPU FloatTensor and are moved with the batch.

Source: https://github.com/LiJunnan1992/DivideMix/blob/master/Train_cifar.py
In `train`, the labeled loader yields `w_x`, each sample's clean probability from the scikit-learn
GaussianMixture (numpy); the loop builds the one-hot `labels_x` on the CPU, casts
`w_x.view(-1,1).type(torch.FloatTensor)`, moves inputs, labels and weights with `.cuda()`, co-guesses
with both networks, co-refines `px = w_x*labels_x + (1-w_x)*px`, mixes with a CPU `randperm`, and
builds the uniform `prior` on the CPU before `prior = prior.cuda()`. All moved before use: nothing to
report. Stand-in: two tiny networks, `SemiLoss` and `linear_rampup` as in the repo, one step of the
loop with the batch already drawn; the meta device plays the GPU (autograd is needed).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import types
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

args = types.SimpleNamespace(batch_size=4, alpha=4, lambda_u=25, T=0.5, num_class=10)
warm_up = 10

def linear_rampup(current, warm_up, rampup_length=16):
    current = np.clip((current-warm_up) / rampup_length, 0.0, 1.0)
    return args.lambda_u*float(current)

class SemiLoss(object):
    def __call__(self, outputs_x, targets_x, outputs_u, targets_u, epoch, warm_up):
        probs_u = torch.softmax(outputs_u, dim=1)
        Lx = -torch.mean(torch.sum(F.log_softmax(outputs_x, dim=1) * targets_x, dim=1))
        Lu = torch.mean((probs_u - targets_u)**2)
        return Lx, Lu, linear_rampup(epoch,warm_up)

def create_model():
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                          nn.Flatten(), nn.Linear(8, args.num_class))
    model = model.to("meta")      # the repo: model = model.cuda()
    return model

net1 = create_model()
net2 = create_model()
criterion = SemiLoss()
net1.train()
net2.eval()

# one draw from labeled_trainloader (w_x: the GMM clean probability) and unlabeled_trainloader
inputs_x, inputs_x2 = torch.randn(4, 3, 8, 8), torch.randn(4, 3, 8, 8)
labels_x = torch.randint(0, 10, (4,))
w_x = torch.from_numpy(np.random.rand(4))        # float64 from GaussianMixture.predict_proba
inputs_u, inputs_u2 = torch.randn(4, 3, 8, 8), torch.randn(4, 3, 8, 8)
epoch, batch_idx, num_iter = 12, 0, 10
net, net2 = net1, net2
'''
CELL = '''
batch_size = inputs_x.size(0)

# Transform label to one-hot
labels_x = torch.zeros(batch_size, args.num_class).scatter_(1, labels_x.view(-1,1), 1)
w_x = w_x.view(-1,1).type(torch.FloatTensor)

inputs_x, inputs_x2, labels_x, w_x = inputs_x.to("meta"), inputs_x2.to("meta"), labels_x.to("meta"), w_x.to("meta")
inputs_u, inputs_u2 = inputs_u.to("meta"), inputs_u2.to("meta")

with torch.no_grad():
    # label co-guessing of unlabeled samples
    outputs_u11 = net(inputs_u)
    outputs_u12 = net(inputs_u2)
    outputs_u21 = net2(inputs_u)
    outputs_u22 = net2(inputs_u2)
    pu = (torch.softmax(outputs_u11, dim=1) + torch.softmax(outputs_u12, dim=1) + torch.softmax(outputs_u21, dim=1) + torch.softmax(outputs_u22, dim=1)) / 4
    ptu = pu**(1/args.T)
    targets_u = ptu / ptu.sum(dim=1, keepdim=True)
    targets_u = targets_u.detach()
    # label refinement of labeled samples
    outputs_x = net(inputs_x)
    outputs_x2 = net(inputs_x2)
    px = (torch.softmax(outputs_x, dim=1) + torch.softmax(outputs_x2, dim=1)) / 2
    px = w_x*labels_x + (1-w_x)*px
    ptx = px**(1/args.T)
    targets_x = ptx / ptx.sum(dim=1, keepdim=True)
    targets_x = targets_x.detach()

# mixmatch
l = np.random.beta(args.alpha, args.alpha)
l = max(l, 1-l)
all_inputs = torch.cat([inputs_x, inputs_x2, inputs_u, inputs_u2], dim=0)
all_targets = torch.cat([targets_x, targets_x, targets_u, targets_u], dim=0)
idx = torch.randperm(all_inputs.size(0))
input_a, input_b = all_inputs, all_inputs[idx]
target_a, target_b = all_targets, all_targets[idx]
mixed_input = l * input_a + (1 - l) * input_b
mixed_target = l * target_a + (1 - l) * target_b

logits = net(mixed_input)
logits_x = logits[:batch_size*2]
logits_u = logits[batch_size*2:]
Lx, Lu, lamb = criterion(logits_x, mixed_target[:batch_size*2], logits_u, mixed_target[batch_size*2:], epoch+batch_idx/num_iter, warm_up)

# regularization
prior = torch.ones(args.num_class)/args.num_class
prior = prior.to("meta")          # the repo: prior = prior.cuda()
pred_mean = torch.softmax(logits, dim=1).mean(0)
penalty = torch.sum(prior*torch.log(prior/pred_mean))
loss = Lx + lamb * Lu + penalty
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
