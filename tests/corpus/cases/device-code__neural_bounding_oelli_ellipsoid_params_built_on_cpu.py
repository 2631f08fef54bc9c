"""neural_bounding OElli baseline: `generate_ellipsoid_params` builds the trainable ellipsoid on the CPU while the points are on the GPU.

Source: https://github.com/wenxin-liu/neural_bounding/pull/2
"Fix device missing in OElli.py: without this, training will crash: RuntimeError: Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". The paper's
oriented-ellipsoid baseline fits `ellipsoid_params` to the GPU point cloud with Adam, but
`generate_ellipsoid_params` made `centre_coords` / `axis_lengths` with `torch.full(...)` and no
device (the axis-aligned baseline had already been fixed). The PR adds `device=device` to both.
Reduced: the fitting loop runs a few steps without the `loss.item()` prints and the `loss == 0`
early exit; the point cloud is random; the "GPU" is meta, where the PCA step is done on the CPU
before the points are moved.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.optim as optim

device = torch.device("meta")                     # src/__init__.py: cuda when available

def generate_ellipsoid_params(dimensions, centre=0.5, radius=0.3):
    # create the centre coordinates
    centre_coords = torch.full((dimensions,), centre, dtype=torch.float32)
    # create the axis lengths (radius)
    axis_lengths = torch.full((dimensions,), radius, dtype=torch.float32)
    ellipsoid_params = torch.cat((centre_coords, axis_lengths))
    ellipsoid_params.requires_grad = True
    return ellipsoid_params

def distance_to_ellipsoid(points, ellipsoid_params, dim):
    center, axis_lengths = ellipsoid_params[:dim], ellipsoid_params[dim:]
    normed_diff = (points - center) / axis_lengths
    return torch.norm(normed_diff, dim=1) - 1

def loss_fn(points, ellipsoid_params, dim):
    distances = distance_to_ellipsoid(points, ellipsoid_params, dim)
    return torch.sum(torch.relu(distances))

dim = 3
gt_positive = torch.rand(500, dim) * 0.4 + 0.3
covariance = torch.cov(gt_positive.T)
eigen_values, eigen_vectors = torch.linalg.eig(covariance)
eigen_vectors = eigen_vectors.real
gt_positive = gt_positive.to(device)
eigen_vectors = eigen_vectors.to(device)
gt_positive_transformed = gt_positive @ eigen_vectors
'''
CELL = '''
ellipsoid_params = generate_ellipsoid_params(dimensions=dim)
optimizer = optim.Adam([ellipsoid_params], lr=0.001)
for i in range(5):
    optimizer.zero_grad()
    loss = loss_fn(gt_positive_transformed, ellipsoid_params, dim)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["ellipsoid_params"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    centre_coords = torch.full((dimensions,), centre, dtype=torch.float32)
    # create the axis lengths (radius)
    axis_lengths = torch.full((dimensions,), radius, dtype=torch.float32)
""", """    centre_coords = torch.full((dimensions,), centre, dtype=torch.float32, device=device)
    # create the axis lengths (radius)
    axis_lengths = torch.full((dimensions,), radius, dtype=torch.float32, device=device)
""")
CLEAN = False
