"""ResNet-50 split by hand over two GPUs: the logits come out on cuda:1, the labels were sent to cuda:0.

Source: https://github.com/sksq96/pytorch-summary/issues/178
"Dividing model over multiple gpus in pytorch": the user subclassed torchvision's ResNet, put
`conv1 ... layer2` in `seq1` on cuda:0 and `layer3, layer4, avgpool` plus `fc` on cuda:1, moved the
activation between them in `forward`, and trained with `b_x`/`b_y` sent to the first GPU. The loss
failed with "Expected all tensors to be on the same device, but found at least two devices, cuda:1
and cuda:0! (when checking argument for argument target in method wrapper_nll_loss_forward)": the
output lives where the last stage is. Stand-in: a small ResNet-shaped base class (torchvision is not
installed) with the same attribute names.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class ResNet(nn.Module):
    """torchvision.models.ResNet, reduced: same attribute names, tiny widths."""
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.layer2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.layer3 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.layer4 = nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(64, num_classes)

num_classes = 2

class CNN(ResNet):
    def __init__(self, *args, **kwargs):
        super(CNN, self).__init__(num_classes=num_classes, *args, **kwargs)

        self.seq1 = nn.Sequential(
            self.conv1,
            self.bn1,
            self.relu,
            self.maxpool,

            self.layer1,
            self.layer2
        ).to('cuda:0')

        self.seq2 = nn.Sequential(
            self.layer3,
            self.layer4,
            self.avgpool,
        ).to('cuda:1')

        self.fc.to('cuda:1')

    def forward(self, x):
        x = self.seq2(self.seq1(x).to('cuda:1'))
        return self.fc(x.view(x.size(0), -1))

cnn = CNN()
cnn.eval()      # the simulator cannot update BatchNorm running stats on a fake GPU; the user trained
loss_func = nn.CrossEntropyLoss()
images, labels = torch.randn(4, 3, 64, 64), torch.randint(0, num_classes, (4,))
b_x = images.to('cuda:0')       # batch x
b_y = labels.to('cuda:0')       # batch y
'''
CELL = '''
output = cnn(b_x)
loss = loss_func(output, b_y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["b_y"]
FIX = "namespace"
REFERENCE_FIX = '''
b_y = b_y.to('cuda:1')
'''
REFERENCE_EDIT = None
CLEAN = False
