"""PyTorch3D `cameras_from_opencv_projection` with CUDA inputs returns cameras on the CPU.

Source: https://github.com/facebookresearch/pytorch3d/issues/1021
"cameras_from_opencv_projection always instantiates cameras on the CPU side": given `R`, `tvec`,
`camera_matrix` and `image_size` on cuda:0, `cameras.R.device` printed `cpu`, because the function
builds `PerspectiveCameras(...)` without `device=`, and the cameras' constructor moves every tensor
to its `device` argument (default "cpu"). Projecting CUDA mesh vertices with them then mixes
devices. The reporter's fix: pass `device=R.device` to the constructor. Stand-in: PerspectiveCameras
(SfM convention, the world-to-view and projection steps of `transform_points_screen`) and the
conversion function, reduced (`narrow`/`select` and a sign vector for its indexing).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class PerspectiveCameras:
    def __init__(self, focal_length=1.0, principal_point=((0.0, 0.0),), R=None, T=None,
                 device="cpu", in_ndc=True, image_size=None):
        self.device = torch.device(device)
        self.focal_length = torch.as_tensor(focal_length).to(self.device)
        self.principal_point = torch.as_tensor(principal_point).to(self.device)
        self.R = R.to(self.device)
        self.T = T.to(self.device)
        self.image_size = image_size.to(self.device) if image_size is not None else None
        self.in_ndc = in_ndc

    def to(self, device):
        return PerspectiveCameras(self.focal_length, self.principal_point, self.R, self.T, device,
                                  self.in_ndc, self.image_size)

    def transform_points_screen(self, points):
        view = torch.bmm(points, self.R) + self.T.unsqueeze(1)              # world -> view
        xy = view.narrow(-1, 0, 2) / view.narrow(-1, 2, 1)
        return xy * self.focal_length.unsqueeze(1) + self.principal_point.unsqueeze(1)

def cameras_from_opencv_projection(R, tvec, camera_matrix, image_size):
    focal_length = camera_matrix.diagonal(dim1=1, dim2=2).narrow(1, 0, 2)          # fx, fy
    principal_point = camera_matrix.narrow(1, 0, 2).select(2, 2)                      # cx, cy
    image_size_wh = image_size.to(R).flip(dims=(1,))
    flip = torch.tensor([-1.0, -1.0, 1.0], device=R.device)                         # [:, :, :2] *= -1
    R_pytorch3d = R.clone().permute(0, 2, 1) * flip
    T_pytorch3d = tvec.clone() * flip
    return PerspectiveCameras(
        R=R_pytorch3d,
        T=T_pytorch3d,
        focal_length=focal_length,
        principal_point=principal_point,
        image_size=image_size_wh,
        in_ndc=False,
    )

device = torch.device("cuda:0")                          # torch.device(0)
R = torch.eye(3, device=device).unsqueeze(0)
tvec = torch.tensor([[0.0, 0.0, 3.0]], device=device)
camera_matrix = torch.tensor([[[300.0, 0.0, 160.0], [0.0, 300.0, 120.0], [0.0, 0.0, 1.0]]], device=device)
image_size = torch.as_tensor([[240, 320]], device=device)
verts = torch.rand(1, 500, 3, device=device) - 0.5       # the mesh's vertices, on the GPU
'''
CELL = '''
cameras = cameras_from_opencv_projection(R=R, tvec=tvec, camera_matrix=camera_matrix, image_size=image_size)
screen_xy = cameras.transform_points_screen(verts)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["cameras"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        image_size=image_size_wh,\n        in_ndc=False,\n    )",
                  "        image_size=image_size_wh,\n        in_ndc=False,\n        device=R.device,\n    )")
CLEAN = False
