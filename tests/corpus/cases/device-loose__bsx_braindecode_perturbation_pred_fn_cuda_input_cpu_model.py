"""braindecode amplitude-perturbation visualisation: `pred_fn` sends each batch to the GPU, the truncated ConvNet it calls is on the CPU.

Source: https://github.com/TNTLFreiburg/braindecode/issues/53
The user copied the perturbation tutorial for BCI IV 2a: `new_model` is an `nn.Sequential` built
from `model.network.named_children()` up to the softmax, and
`pred_fn = lambda x: var_to_np(th.mean(new_model(np_to_var(x).cuda())[:, :, :, 0], dim=2))` is
handed to `compute_amplitude_prediction_correlations`. It failed with "Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same": the network had
not been moved to the GPU (`cuda` was off for the model), yet `pred_fn` moves the input. The
maintainer: "ensure both your model and input are on GPU (or both on CPU)".
Stand-ins: a Deep4Net-shaped network (conv_time, conv_spat, bnorm, nonlinearity, pool, a linear
classifier head in place of the conv classifier), `np_to_var`, and a perturbation routine that
keeps the predictions as tensors (the fake GPU cannot copy back to numpy); `.to("cuda:0")` stands
for the report's `.cuda()`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
from collections import OrderedDict
import numpy as np
import torch as th
from torch import nn

def np_to_var(x):
    return th.from_numpy(np.asarray(x, dtype=np.float32))

class Deep4Net(nn.Module):
    def __init__(self, in_chans=22, n_classes=4, input_time_length=500, n_filters=10):
        super().__init__()
        self.network = nn.Sequential(OrderedDict([
            ("conv_time", nn.Conv2d(1, n_filters, (10, 1))),
            ("conv_spat", nn.Conv2d(n_filters, n_filters, (1, in_chans), bias=False)),
            ("bnorm", nn.BatchNorm2d(n_filters)),
            ("conv_nonlin", nn.ELU()),
            ("pool", nn.MaxPool2d((3, 1), (3, 1))),
            ("flatten", nn.Flatten(2)),
            ("classifier", nn.Linear(1, 1)),
            ("softmax", nn.LogSoftmax(dim=1)),
        ]))
        n_out = (input_time_length - 9) // 3
        self.network.classifier = nn.Linear(n_out, n_out)

    def forward(self, x):
        return self.network(x.permute(0, 3, 2, 1))

cuda = False
input_time_length = 500
model = Deep4Net(in_chans=22, n_classes=4, input_time_length=input_time_length)
if cuda:
    model.network.to("cuda:0")

train_X_batches = np.random.RandomState(0).randn(30, 22, input_time_length, 1).astype(np.float32)

new_model = nn.Sequential()
for name, module in model.network.named_children():
    if name == 'softmax':
        break
    new_model.add_module(name, module)
new_model.eval()

def compute_amplitude_prediction_correlations(pred_fn, examples, n_iterations, batch_size=30):
    with th.no_grad():
        orig_preds = [pred_fn(examples[i:i + batch_size]) for i in range(0, len(examples), batch_size)]
        for _ in range(n_iterations):
            noise = np.random.randn(*examples.shape).astype(np.float32) * 0.01
            new_preds = [pred_fn(examples[i:i + batch_size] + noise[i:i + batch_size])
                         for i in range(0, len(examples), batch_size)]
    return orig_preds, new_preds

pred_fn = lambda x: th.mean(new_model(np_to_var(x).permute(0, 3, 2, 1).to("cuda:0")), dim=2, keepdim=False)
'''
CELL = '''
amp_pred_corrs = compute_amplitude_prediction_correlations(pred_fn, train_X_batches, n_iterations=2, batch_size=30)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["new_model"]
FIX = "namespace"
REFERENCE_FIX = '''
new_model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
