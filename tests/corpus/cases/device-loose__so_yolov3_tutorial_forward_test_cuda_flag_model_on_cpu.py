"""YOLOv3-from-scratch tutorial, "testing the forward pass": CUDA=True while the model and input stay on the CPU.

Source: https://github.com/ayooshkathuria/YOLO_v3_tutorial_from_scratch/pull/30
Running the tutorial's forward-pass test, `pred = model(inp, torch.cuda.is_available())`, on a GPU
machine failed in `util.predict_transform` at `prediction[:,:,:2] += x_y_offset` with "Expected
object of type torch.FloatTensor but found type torch.cuda.FloatTensor for argument #4 'other'":
with the CUDA flag set, the helper moves its grid offsets and anchors with `.cuda()`, but the
`Darknet` model and the test image were never moved, so `prediction` is a CPU tensor. The PR adds
`prediction = prediction.cuda()`. Stand-in: `predict_transform` as in the tutorial (`.cuda()` as
`.to(device)`), a two-conv detection head in place of the cfg-built Darknet; the "GPU" is the meta
device.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

device = torch.device("meta")       # what .cuda() targets here

def predict_transform(prediction, inp_dim, anchors, num_classes, CUDA=True):
    batch_size = prediction.size(0)
    stride = inp_dim // prediction.size(2)
    grid_size = inp_dim // stride
    bbox_attrs = 5 + num_classes
    num_anchors = len(anchors)
    prediction = prediction.view(batch_size, bbox_attrs * num_anchors, grid_size * grid_size)
    prediction = prediction.transpose(1, 2).contiguous()
    prediction = prediction.view(batch_size, grid_size * grid_size * num_anchors, bbox_attrs)
    anchors = [(a[0] / stride, a[1] / stride) for a in anchors]
    prediction[:, :, 0] = torch.sigmoid(prediction[:, :, 0])
    prediction[:, :, 1] = torch.sigmoid(prediction[:, :, 1])
    prediction[:, :, 4] = torch.sigmoid(prediction[:, :, 4])
    grid = np.arange(grid_size)
    a, b = np.meshgrid(grid, grid)
    x_offset = torch.FloatTensor(a).view(-1, 1)
    y_offset = torch.FloatTensor(b).view(-1, 1)
    if CUDA:
        x_offset = x_offset.to(device)       # .cuda()
        y_offset = y_offset.to(device)       # .cuda()
    x_y_offset = torch.cat((x_offset, y_offset), 1).repeat(1, num_anchors).view(-1, 2).unsqueeze(0)
    prediction[:, :, :2] += x_y_offset
    anchors = torch.FloatTensor(anchors)
    if CUDA:
        anchors = anchors.to(device)         # .cuda()
    anchors = anchors.repeat(grid_size * grid_size, 1).unsqueeze(0)
    prediction[:, :, 2:4] = torch.exp(prediction[:, :, 2:4]) * anchors
    prediction[:, :, 5: 5 + num_classes] = torch.sigmoid((prediction[:, :, 5: 5 + num_classes]))
    prediction[:, :, :4] *= stride
    return prediction

class Darknet(nn.Module):
    def __init__(self, num_classes=80, anchors=((10, 13), (16, 30), (33, 23))):
        super(Darknet, self).__init__()
        self.net_info = {"height": 64}
        self.num_classes, self.anchors = num_classes, list(anchors)
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.1),
                                      nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.LeakyReLU(0.1))
        self.head = nn.Conv2d(32, len(anchors) * (5 + num_classes), 1)
    def forward(self, x, CUDA):
        x = self.head(self.backbone(x))
        inp_dim = int(self.net_info["height"])
        return predict_transform(x.data, inp_dim, self.anchors, self.num_classes, CUDA)

def get_test_input():
    img = np.random.rand(64, 64, 3)                       # cv2.imread("dog-cycle-car.png"), resized
    img_ = img[:, :, ::-1].transpose((2, 0, 1))
    img_ = img_[np.newaxis, :, :, :] / 255.0
    return torch.from_numpy(img_.copy()).float()

model = Darknet()
inp = get_test_input()
CUDA = True                                               # torch.cuda.is_available() on the user's machine
'''
CELL = '''
pred = model(inp, CUDA)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "is not on the expected device",
                "found at least two devices")
CULPRITS = ["model", "inp"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(device)
inp = inp.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
