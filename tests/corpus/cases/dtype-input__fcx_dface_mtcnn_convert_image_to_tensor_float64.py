"""DFace MTCNN `test_image.py`: `convert_image_to_tensor` casts the image to float64, so P-Net gets a Double batch.

Source: https://github.com/kuaikuaikim/dface/issues/39
Running DFace's `test_image.py` (`bboxs, landmarks = mtcnn_detector.detect_face(img)`) failed with
"RuntimeError: expected scalar type Double but found Float" in `detect_pnet` -> `self.pnet_detector(feed_imgs)`.
`dface/core/image_tools.py::convert_image_to_tensor` does `image = image.astype(np.float)` (float64) and
`transforms.ToTensor()` keeps that dtype for a non-uint8 array, while the P-Net weights are float32. The
answer: change that function's return to `(transform(image) / 255).float()`.
Stand-ins: torchvision's `ToTensor` (HWC ndarray -> CHW tensor, dtype kept for non-uint8 input), a small
P-Net, and `MtcnnDetector.detect_face`/`detect_pnet` reduced to the first P-Net call
(`np.float` written `np.float64`, its alias).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.autograd.variable import Variable

class ToTensor:                       # torchvision.transforms.ToTensor for an ndarray
    def __call__(self, pic):
        img = torch.from_numpy(pic.transpose((2, 0, 1))).contiguous()
        if img.dtype == torch.uint8:
            return img.float().div(255)
        return img

transform = ToTensor()

def convert_image_to_tensor(image):
    """convert an image to pytorch tensor (dface/core/image_tools.py)"""
    image = image.astype(np.float64)
    return transform(image)

class PNet(nn.Module):
    def __init__(self, is_train=False, use_cuda=False):
        super().__init__()
        self.is_train, self.use_cuda = is_train, use_cuda
        self.pre_layer = nn.Sequential(
            nn.Conv2d(3, 10, kernel_size=3, stride=1), nn.PReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(10, 16, kernel_size=3, stride=1), nn.PReLU(),
            nn.Conv2d(16, 32, kernel_size=3, stride=1), nn.PReLU())
        self.conv4_1 = nn.Conv2d(32, 1, kernel_size=1, stride=1)
        self.conv4_2 = nn.Conv2d(32, 4, kernel_size=1, stride=1)

    def forward(self, x):
        x = self.pre_layer(x)
        label = torch.sigmoid(self.conv4_1(x))
        offset = self.conv4_2(x)
        return label, offset

def create_mtcnn_net(p_model_path=None, use_cuda=False):
    pnet = PNet(use_cuda=use_cuda)
    pnet.eval()
    return pnet, None, None

class MtcnnDetector(object):
    def __init__(self, pnet=None, rnet=None, onet=None, min_face_size=12, threshold=[0.6, 0.7, 0.7]):
        self.pnet_detector, self.rnet_detector, self.onet_detector = pnet, rnet, onet
        self.min_face_size, self.thresh = min_face_size, threshold

    def detect_pnet(self, im):
        feed_imgs = []
        image_tensor = convert_image_to_tensor(im)
        feed_imgs.append(image_tensor)
        feed_imgs = torch.stack(feed_imgs)
        feed_imgs = Variable(feed_imgs)
        if self.pnet_detector.use_cuda:
            feed_imgs = feed_imgs.cuda()
        cls_map, reg = self.pnet_detector(feed_imgs)
        return cls_map, reg

    def detect_face(self, img):
        with torch.no_grad():
            boxes, boxes_align = self.detect_pnet(img)
        return boxes, boxes_align

pnet, rnet, onet = create_mtcnn_net(p_model_path="./model_store/pnet_epoch.pt", use_cuda=False)
mtcnn_detector = MtcnnDetector(pnet=pnet, rnet=rnet, onet=onet, min_face_size=24)
img = (np.random.rand(48, 64, 3) * 255).astype(np.uint8)        # cv2.imread("./test.jpg")
'''
CELL = '''
bboxs, landmarks = mtcnn_detector.detect_face(img)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["convert_image_to_tensor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    return transform(image)\n", "    return (transform(image) / 255).float()\n")
CLEAN = False
