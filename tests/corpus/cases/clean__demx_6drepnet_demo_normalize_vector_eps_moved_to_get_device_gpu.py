"""Look-alike: the current 6DRepNet webcam demo on `--gpu 3`: `normalize_vector` builds its epsilon on the CPU and moves it to `'cuda:%d' % v_mag.get_device()`.

Source: https://github.com/thohemp/6DRepNet/blob/464b2ba55c3d9b3d3b707c6271cf329a983ded20/sixdrepnet/utils.py
After the device fix, `normalize_vector` does `gpu = v_mag.get_device()` and
`eps = torch.autograd.Variable(torch.FloatTensor([1e-8])).to(torch.device('cuda:%d' % gpu))`, and
`compute_euler_angles_from_rotation_matrices` fills `out_euler = ...torch.zeros(batch,3)).to(torch.device('cuda:%d'
% gpu))` in place; `sixdrepnet/demo.py` moves the model and each face crop to `torch.device('cuda:%d' % gpu)`
and brings the result back with `.cpu()`. A tensor born on the CPU and moved to the input's own GPU (the
same pattern as the one `compute_euler_angles_from_rotation_matrices` uses for its output, left out here as
slice assignment is not simulated): nothing to report. Stand-ins: the RepVGG backbone reduced to one conv stage, the detector and webcam to one face crop
(an RGB ndarray; the PIL/torchvision transforms reduced to ToTensor + Normalize).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

# sixdrepnet/utils.py
def normalize_vector(v):
    batch = v.shape[0]
    v_mag = torch.sqrt(v.pow(2).sum(1))# batch
    gpu = v_mag.get_device()
    if gpu < 0:
        eps = torch.autograd.Variable(torch.FloatTensor([1e-8])).to(torch.device('cpu'))
    else:
        eps = torch.autograd.Variable(torch.FloatTensor([1e-8])).to(torch.device('cuda:%d' % gpu))
    v_mag = torch.max(v_mag, eps)
    v_mag = v_mag.view(batch,1).expand(batch,v.shape[1])
    v = v/v_mag
    return v

def cross_product(u, v):
    batch = u.shape[0]
    i = u[:,1]*v[:,2] - u[:,2]*v[:,1]
    j = u[:,2]*v[:,0] - u[:,0]*v[:,2]
    k = u[:,0]*v[:,1] - u[:,1]*v[:,0]
    out = torch.cat((i.view(batch,1), j.view(batch,1), k.view(batch,1)),1) #batch*3
    return out

def compute_rotation_matrix_from_ortho6d(poses):
    x_raw = poses[:,0:3] #batch*3
    y_raw = poses[:,3:6] #batch*3
    x = normalize_vector(x_raw) #batch*3
    z = cross_product(x,y_raw) #batch*3
    z = normalize_vector(z) #batch*3
    y = cross_product(z,x) #batch*3
    x = x.view(-1,3,1)
    y = y.view(-1,3,1)
    z = z.view(-1,3,1)
    matrix = torch.cat((x,y,z), 2) #batch*3*3
    return matrix

# sixdrepnet/model.py
class SixDRepNet(nn.Module):
    def __init__(self, backbone_name, backbone_file, deploy, pretrained=True):
        super(SixDRepNet, self).__init__()
        self.layer0 = nn.Sequential(nn.Conv2d(3, 8, 3, stride=4, padding=1), nn.ReLU())   # RepVGG, reduced
        self.gap = nn.AdaptiveAvgPool2d(output_size=1)
        self.linear_reg = nn.Linear(8, 6)
    def forward(self, x):
        x = self.layer0(x)
        x = self.gap(x)
        x = torch.flatten(x, 1)
        x = self.linear_reg(x)
        return compute_rotation_matrix_from_ortho6d(x)

def transformations(img):
    """Compose([Resize(224), CenterCrop(224), ToTensor(), Normalize(...)]), reduced (no resize)."""
    t = torch.from_numpy(np.ascontiguousarray(img.transpose((2, 0, 1)))).float().div(255)
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    return (t - mean) / std

# sixdrepnet/demo.py --gpu 3
gpu = 3
if (gpu < 0):
    device = torch.device('cpu')
else:
    device = torch.device('cuda:%d' % gpu)
model = SixDRepNet(backbone_name='RepVGG-B1g2', backbone_file='', deploy=True, pretrained=False)
model.to(device)
model.eval()

frame = np.random.randint(0, 256, size=(240, 320, 3), dtype=np.uint8)   # cap.read()
x_min, y_min, x_max, y_max = 80, 40, 200, 180
img = frame[y_min:y_max, x_min:x_max]     # Image.fromarray(img).convert('RGB')
'''
CELL = '''
with torch.no_grad():
    img = transformations(img)
    img = torch.Tensor(img[None, :]).to(device)
    R_pred = model(img)
    R_pred_cpu = R_pred.cpu()      # demo: euler angles from R_pred, then .cpu() for plot_pose_cube
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
