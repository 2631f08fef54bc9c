"""6DRepNet webcam demo with `--gpu 3`: `normalize_vector` builds its epsilon with `torch.FloatTensor([1e-8]).cuda()`, on cuda:0.

Source: https://github.com/thohemp/6DRepNet/issues/26
"cant change gpu id in demo.py": with the model on another GPU (`model.cuda(gpu)`, frames sent with
`.cuda(gpu)`), `R_pred = model(img)` fails in `utils.compute_rotation_matrix_from_ortho6d` ->
`normalize_vector` at `v_mag = torch.max(v_mag, torch.autograd.Variable(torch.FloatTensor([1e-8]).cuda()))`:
"Expected all tensors to be on the same device, but found at least two devices, cuda:3 and cuda:0!". The bare
`.cuda()` always means the default GPU; the maintainer's later fix ("Update demo.py to run on CPU" /
"adjust...") builds the epsilon on `v_mag`'s own device. Stand-ins: the RepVGG backbone reduced to one conv
stage; the RetinaFace detector and the webcam reduced to one face crop (an RGB ndarray; the PIL/torchvision transforms reduced to ToTensor + Normalize). `.cuda(gpu)` is written
`.to('cuda:%d' % gpu)` and the bare `.cuda()` `.to('cuda:0')` (the current device), as the fake-cuda
simulation has no CUDA runtime.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

# utils.py
def normalize_vector( v, use_gpu=True):
    batch=v.shape[0]
    v_mag = torch.sqrt(v.pow(2).sum(1))# batch
    if use_gpu:
        v_mag = torch.max(v_mag, torch.autograd.Variable(torch.FloatTensor([1e-8]).to('cuda:0')))
    else:
        v_mag = torch.max(v_mag, torch.autograd.Variable(torch.FloatTensor([1e-8])))
    v_mag = v_mag.view(batch,1).expand(batch,v.shape[1])
    v = v/v_mag
    return v

def cross_product( u, v):
    batch = u.shape[0]
    i = u[:,1]*v[:,2] - u[:,2]*v[:,1]
    j = u[:,2]*v[:,0] - u[:,0]*v[:,2]
    k = u[:,0]*v[:,1] - u[:,1]*v[:,0]
    out = torch.cat((i.view(batch,1), j.view(batch,1), k.view(batch,1)),1)#batch*3
    return out

def compute_rotation_matrix_from_ortho6d(poses, use_gpu=True):
    x_raw = poses[:,0:3]#batch*3
    y_raw = poses[:,3:6]#batch*3
    x = normalize_vector(x_raw, use_gpu) #batch*3
    z = cross_product(x,y_raw) #batch*3
    z = normalize_vector(z, use_gpu)#batch*3
    y = cross_product(z,x)#batch*3
    x = x.view(-1,3,1)
    y = y.view(-1,3,1)
    z = z.view(-1,3,1)
    matrix = torch.cat((x,y,z), 2) #batch*3*3
    return matrix

# model.py
class SixDRepNet(nn.Module):
    def __init__(self, backbone_name, backbone_file, deploy, pretrained=True):
        super(SixDRepNet, self).__init__()
        # RepVGG-B1g2 stages, reduced
        self.layer0 = nn.Sequential(nn.Conv2d(3, 8, 3, stride=4, padding=1), nn.ReLU())
        self.gap = nn.AdaptiveAvgPool2d(output_size=1)
        self.linear_reg = nn.Linear(8, 6)

    def forward(self, x):
        x = self.layer0(x)
        x= self.gap(x)
        x = torch.flatten(x, 1)
        x = self.linear_reg(x)
        return compute_rotation_matrix_from_ortho6d(x)

# demo.py --gpu 3
def transformations(img):
    """transforms.Compose([Resize(224), CenterCrop(224), ToTensor(), Normalize(...)]), reduced (no resize)."""
    t = torch.from_numpy(np.ascontiguousarray(img.transpose((2, 0, 1)))).float().div(255)
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    return (t - mean) / std
gpu = 3
model = SixDRepNet(backbone_name='RepVGG-B1g2', backbone_file='', deploy=True, pretrained=False)
model.to('cuda:%d' % gpu)
model.eval()

frame = np.random.randint(0, 256, size=(240, 320, 3), dtype=np.uint8)   # cap.read()
x_min, y_min, x_max, y_max = 80, 40, 200, 180                          # RetinaFace box, widened
img = frame[y_min:y_max, x_min:x_max]     # Image.fromarray(img).convert('RGB')
'''
CELL = '''
with torch.no_grad():
    img = transformations(img)
    img = torch.Tensor(img[None, :]).to('cuda:%d' % gpu)
    R_pred = model(img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["normalize_vector"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.autograd.Variable(torch.FloatTensor([1e-8]).to('cuda:0'))",
    "torch.autograd.Variable(torch.FloatTensor([1e-8])).to(v_mag.device)",
)
CLEAN = False
