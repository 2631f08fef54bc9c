"""Look-alike: labels loaded with np.loadtxt as float32 for BCELoss and as int64 for the multi-class net.

Source: https://jamesmccaffreyblog.com/2023/03/22/why-pytorch-binary-cassification-labels-must-be-floats-but-multi-class-classification-labels-must-be-integers/
The post loads a tab-separated file with `np.loadtxt(..., dtype=np.float32)`; for the binary
(sex) model the label column stays float32 and is reshaped to 2-D for `BCELoss`, while for the
multi-class (politics) model the label column is made `T.int64` for `NLLLoss`/`CrossEntropyLoss`.
Float labels and integer labels side by side are each what their loss requires.
Stand-in: the file's rows generated with numpy.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch as T

device = T.device('cpu')
rng = np.random.default_rng(0)
all_data = np.column_stack([rng.integers(0, 2, 40), rng.random(40), rng.integers(0, 2, (40, 3)),
                            rng.random(40), rng.integers(0, 3, 40)]).astype(np.float32)

# binary: predict sex from the other columns
bx_data = T.tensor(all_data[:, 1:6], dtype=T.float32).to(device)
by_data = T.tensor(all_data[:, 0], dtype=T.float32).to(device)
by_data = by_data.reshape(-1, 1)
bnet = T.nn.Sequential(T.nn.Linear(5, 8), T.nn.Tanh(), T.nn.Linear(8, 1), T.nn.Sigmoid())
bloss_func = T.nn.BCELoss()

# multi-class: predict politics (0, 1, 2)
mx_data = T.tensor(all_data[:, 0:6], dtype=T.float32).to(device)
my_data = T.tensor(all_data[:, 6], dtype=T.int64).to(device)
mnet = T.nn.Sequential(T.nn.Linear(6, 8), T.nn.Tanh(), T.nn.Linear(8, 3), T.nn.LogSoftmax(dim=1))
mloss_func = T.nn.NLLLoss()
'''
CELL = '''
bloss = bloss_func(bnet(bx_data), by_data)
mloss = mloss_func(mnet(mx_data), my_data)
(bloss + mloss).backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
