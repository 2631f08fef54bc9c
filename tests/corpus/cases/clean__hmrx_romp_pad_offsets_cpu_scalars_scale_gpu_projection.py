"""simple-ROMP maps GPU 2D projections back to the original image with offsets from a CPU tensor.

Source: https://github.com/Arthur151/ROMP/blob/master/simple_romp/romp/post_parser.py
In simple_romp, `padding_image` (romp/utils.py) returns `image_pad_info = torch.Tensor([top, bottom,
left, right, h, w])`, a CPU tensor, while the network and SMPL outputs live on `self.tdevice`.
`body_mesh_projection2image(..., input2org_offsets=image_pad_info)` calls
`convert_proejection_from_input_to_orgimg(kps, offsets)`, which unpacks the offsets into 0-dim CPU
tensors and uses them in arithmetic with the GPU keypoints/vertices; 0-dim CPU tensors are accepted as
scalars. Look-alike: a CPU tensor mixed into GPU math on purpose; it runs.
Stand-in: padding/preprocessing without cv2 resizing, the orthographic projection and the projection
helpers (without the numpy camera-translation solve); the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

def padding_image(image):
    h, w = image.shape[:2]
    side_length = max(h, w)
    pad_image = np.zeros((side_length, side_length, 3), dtype=np.uint8)
    top, left = int((side_length - h) // 2), int((side_length - w) // 2)
    bottom, right = int(top + h), int(left + w)
    pad_image[top:bottom, left:right] = image
    image_pad_info = torch.Tensor([top, bottom, left, right, h, w])
    return pad_image, image_pad_info

def img_preprocess(image, input_size=512):
    image = image[..., ::-1]                                   # cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    pad_image, image_pad_info = padding_image(image)
    input_image = torch.from_numpy(pad_image.copy())[None].float()   # cv2.resize to 512 omitted
    return input_image, image_pad_info

def batch_orth_proj(X, camera, mode='2d', keep_dim=False):
    camera = camera.view(-1, 1, 3)
    X_camed = X[:, :, :2] * camera[:, :, 0].unsqueeze(-1)
    X_camed += camera[:, :, 1:]
    if keep_dim:
        X_camed = torch.cat([X_camed, X[:, :, 2].unsqueeze(-1)], -1)
    return X_camed

def convert_proejection_from_input_to_orgimg(kps, offsets):
    top, bottom, left, right, h, w = offsets
    img_pad_size = max(h, w)
    kps[:, :, 0] = (kps[:, :, 0] + 1) * img_pad_size / 2 - left
    kps[:, :, 1] = (kps[:, :, 1] + 1) * img_pad_size / 2 - top
    if kps.shape[-1] == 3:
        kps[:, :, 2] = (kps[:, :, 2] + 1) * img_pad_size / 2
    return kps

def body_mesh_projection2image(j3d_preds, cam_preds, vertices=None, input2org_offsets=None):
    pj3d = batch_orth_proj(j3d_preds, cam_preds, mode='2d')
    projected_outputs = {'pj2d': pj3d[:, :, :2]}
    if vertices is not None:
        projected_outputs['verts_camed'] = batch_orth_proj(vertices, cam_preds, mode='3d', keep_dim=True)
    if input2org_offsets is not None:
        projected_outputs['pj2d_org'] = convert_proejection_from_input_to_orgimg(projected_outputs['pj2d'], input2org_offsets)
        projected_outputs['verts_camed_org'] = convert_proejection_from_input_to_orgimg(projected_outputs['verts_camed'], input2org_offsets)
    return projected_outputs

tdevice = torch.device('meta')                     # determine_device(GPU=0), simulated with meta
image = np.random.RandomState(0).randint(0, 255, (480, 640, 3)).astype(np.uint8)
input_image, image_pad_info = img_preprocess(image)
n_people = 2
outputs = {                                         # ROMP + SMPL_parser outputs, on the GPU
    'joints': torch.randn(n_people, 71, 3, device=tdevice),
    'verts': torch.randn(n_people, 6890, 3, device=tdevice),
    'cam': torch.randn(n_people, 3, device=tdevice),
}
'''
CELL = '''
outputs.update(body_mesh_projection2image(outputs['joints'], outputs['cam'], vertices=outputs['verts'],
                                          input2org_offsets=image_pad_info))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
