"""A CNN tutorial copied into Jupyter on Windows: `train_y.astype(int)` makes int32 labels for CrossEntropyLoss.

Source: https://github.com/celantur/panoptic_segm_demo/issues/2
"I have copied an online script into Jupyter Notebook ... At the first call to train(epoch) a
runtime error is caused: ... cross_entropy ... RuntimeError: expected scalar type Long but found
Int". The tutorial converts the targets with `train_y = train_y.astype(int); train_y =
torch.from_numpy(train_y)` (and the same for `val_y`); NumPy's `int` is 32-bit on Windows, so the
labels are an IntTensor and the loss needs int64. Stand-in: the tutorial's two-block CNN and
`train(epoch)` on random 28x28 images; `astype(int)` written `astype(np.int32)` to get Windows'
result on any platform.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch.autograd import Variable
from torch.nn import Linear, ReLU, CrossEntropyLoss, Sequential, Conv2d, MaxPool2d, Module, BatchNorm2d
from torch.optim import Adam

train_x = np.random.rand(48, 1, 28, 28).astype("float32")
train_y = np.random.randint(0, 10, 48)
val_x = np.random.rand(16, 1, 28, 28).astype("float32")
val_y = np.random.randint(0, 10, 16)

train_x = torch.from_numpy(train_x)
train_y = train_y.astype(np.int32)          # train_y.astype(int): int32 on Windows
train_y = torch.from_numpy(train_y)
val_x = torch.from_numpy(val_x)
val_y = val_y.astype(np.int32)              # val_y.astype(int)
val_y = torch.from_numpy(val_y)

class Net(Module):
    def __init__(self):
        super().__init__()
        self.cnn_layers = Sequential(
            Conv2d(1, 4, kernel_size=3, stride=1, padding=1), BatchNorm2d(4), ReLU(inplace=True),
            MaxPool2d(kernel_size=2, stride=2),
            Conv2d(4, 4, kernel_size=3, stride=1, padding=1), BatchNorm2d(4), ReLU(inplace=True),
            MaxPool2d(kernel_size=2, stride=2))
        self.linear_layers = Sequential(Linear(4 * 7 * 7, 10))

    def forward(self, x):
        x = self.cnn_layers(x)
        x = x.view(x.size(0), -1)
        return self.linear_layers(x)

model = Net()
optimizer = Adam(model.parameters(), lr=0.07)
criterion = CrossEntropyLoss()
train_losses, val_losses = [], []

def train(epoch):
    model.train()
    x_train, y_train = Variable(train_x), Variable(train_y)
    x_val, y_val = Variable(val_x), Variable(val_y)
    optimizer.zero_grad()
    output_train = model(x_train)
    output_val = model(x_val)
    loss_train = criterion(output_train, y_train)
    loss_val = criterion(output_val, y_val)
    train_losses.append(loss_train)
    val_losses.append(loss_val)
    loss_train.backward()
    optimizer.step()
'''
CELL = '''
n_epochs = 2
for epoch in range(n_epochs):
    train(epoch)
'''
EXPECT_ERROR = ("expected scalar type Long but found Int",
                "expected target dtype to be Long or Byte, but got Int")
CULPRITS = ["train_y", "val_y"]
FIX = "namespace"
REFERENCE_FIX = '''
train_y = train_y.long()
val_y = val_y.long()
'''
REFERENCE_EDIT = None
CLEAN = False
