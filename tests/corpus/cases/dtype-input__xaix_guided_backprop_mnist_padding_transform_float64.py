"""Guided-backprop MNIST notebook: the padding transform builds float64 images, the CNN's conv weights are float32.

Source: https://github.com/GunhoChoi/Grad-CAM-Pytorch/issues/1
Running the "6) Train" cell of `GuidedBackprop_MNIST.ipynb` failed with "Input type (torch.cuda.DoubleTensor)
and weight type (torch.cuda.FloatTensor) should be the same". The notebook's `one_sided_padding` transform pastes
the resized digit into `np.zeros(shape=[28,28,1])` (float64), and `ToTensor` keeps a float ndarray's dtype, so
every batch is double. The answer (and the repo's later fix PR): convert the batch, `x = Variable(image.float())`.
Stand-ins: a random 12x12 "digit" dataset run through the notebook's `one_sided_padding` and a ToTensor that, like
torchvision's, only rescales uint8 input; the notebook's CNN (narrower) in `nn.DataParallel`; one training step on
the CPU (dtype bug: no GPU needed).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import random
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

batch_size = 16
learning_rate = 0.0001

def one_sided_padding(x):
    rand1 = random.randrange(0, 15, 3)
    rand2 = random.randrange(0, 15, 3)
    zero = np.zeros(shape=[28, 28, 1])
    zero[rand1:rand1 + 12, rand2:rand2 + 12, :] = np.asarray(x).reshape(12, 12, 1)
    return zero

def to_tensor(pic):
    img = torch.from_numpy(pic.transpose((2, 0, 1)).copy())
    if img.dtype == torch.uint8:
        return img.float().div(255)
    return img

class PaddedDigits(torch.utils.data.Dataset):
    def __init__(self, n=64):
        self.digits = [np.random.rand(12, 12).astype(np.float32) for _ in range(n)]
        self.labels = [random.randrange(10) for _ in range(n)]
    def __len__(self):
        return len(self.digits)
    def __getitem__(self, i):
        return to_tensor(one_sided_padding(self.digits[i])), self.labels[i]

train_loader = torch.utils.data.DataLoader(PaddedDigits(), batch_size=batch_size, shuffle=True, drop_last=True)

class CNN(nn.Module):
    def __init__(self, num_feature=8):
        super(CNN, self).__init__()
        self.num_feature = num_feature
        self.layer = nn.Sequential(
            nn.Conv2d(1, self.num_feature, 3, 1, 1), nn.BatchNorm2d(self.num_feature), nn.ReLU(),
            nn.Conv2d(self.num_feature, self.num_feature * 2, 3, 1, 1), nn.BatchNorm2d(self.num_feature * 2), nn.ReLU(),
            nn.AvgPool2d(2, 2),
            nn.Conv2d(self.num_feature * 2, self.num_feature * 4, 3, 1, 1), nn.BatchNorm2d(self.num_feature * 4), nn.ReLU(),
            nn.AvgPool2d(2, 2),
        )
        self.fc_layer = nn.Sequential(nn.Linear(self.num_feature * 4 * 7 * 7, 100), nn.ReLU(), nn.Linear(100, 10))
    def forward(self, x):
        out = self.layer(x)
        out = out.view(x.size()[0], -1)
        return self.fc_layer(out)

model = nn.DataParallel(CNN())          # nn.DataParallel(CNN().cuda())
loss_func = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
image, label = next(iter(train_loader))
'''
CELL = '''
model.train()
x = Variable(image)
y_ = Variable(label)
optimizer.zero_grad()
output = model.forward(x)
loss = loss_func(output, y_)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("Input type", "should be the same")
CULPRITS = ["image"]
FIX = "namespace"
REFERENCE_FIX = '''
image = image.float()
'''
REFERENCE_EDIT = None
CLEAN = False
