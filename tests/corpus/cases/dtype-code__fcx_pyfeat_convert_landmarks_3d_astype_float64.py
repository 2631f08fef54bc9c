"""py-feat MPDetector head pose: `convert_landmarks_3d` casts the face-mesh landmarks with `astype(float)` (float64) against the float32 canonical face model.

Source: https://github.com/cosanlab/py-feat/pull/278
While migrating MPDetector to the RetinaFace-R34 wrapper the maintainer fixed "a pre-existing dtype mismatch in
`convert_landmarks_3d`": it returns `torch.tensor(fex.landmarks.astype(float).values)`, and Python `float` is
float64, while the canonical face model loaded with `torch.load` is float32, so the rigid-alignment matmul
in `estimate_face_pose_from_mesh` -> `umeyama_alignment` raises "expected m1 and m2 to have the same dtype".
The fix casts with `astype("float32")` in `convert_landmarks_3d`.
Stand-ins: the Fex dataframe's `landmarks` block (an `.astype(...).values` wrapper around the float32 mesh
coordinates), `load_canonical_face_model` returning a float32 [468, 3] tensor; `umeyama_alignment` and
`estimate_face_pose_from_mesh` as in `feat/utils/face_pose.py` (scale branch kept).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch

class _Block:                               # stand-in for fex.landmarks (a DataFrame column block)
    def __init__(self, values):
        self.values = values
    def astype(self, dtype):
        return _Block(self.values.astype(dtype))

class Fex:
    def __init__(self, landmarks):
        self._landmarks = landmarks
        self.shape = (landmarks.shape[0], landmarks.shape[1])
    @property
    def landmarks(self):
        return _Block(self._landmarks)

def load_canonical_face_model(device=None):
    canonical = torch.from_numpy(np.random.default_rng(1).normal(size=(468, 3)).astype(np.float32))
    if device is not None:
        canonical = canonical.to(device)
    return canonical

def convert_landmarks_3d(fex):
    return torch.tensor(fex.landmarks.astype(float).values).reshape(fex.shape[0], 478, 3)

def umeyama_alignment(src, dst, with_scale=True):
    src_mean = src.mean(dim=-2, keepdim=True)
    dst_mean = dst.mean(dim=-2, keepdim=True)
    src_c = src - src_mean
    dst_c = dst - dst_mean
    H = src_c.transpose(-2, -1) @ dst_c
    U, S, Vh = torch.linalg.svd(H)
    V = Vh.transpose(-2, -1)
    det = torch.det(V @ U.transpose(-2, -1))
    sign = torch.where(det < 0, torch.tensor(-1.0, dtype=det.dtype), torch.tensor(1.0, dtype=det.dtype))
    D = torch.eye(3, dtype=src.dtype, device=src.device).expand(*sign.shape, 3, 3).clone()
    D[..., 2, 2] = sign
    R = V @ D @ U.transpose(-2, -1)
    S_signed = S.clone()
    S_signed[..., 2] = S_signed[..., 2] * sign
    scale = (S_signed.sum(dim=-1) / src_c.pow(2).sum(dim=(-2, -1)).clamp(min=1e-12)).clamp(min=0.0)
    t = dst_mean.squeeze(-2) - (scale.unsqueeze(-1) * (R @ src_mean.squeeze(-2).unsqueeze(-1)).squeeze(-1))
    return R, t, scale

def estimate_face_pose_from_mesh(observed_landmarks_3d, canonical=None, return_euler_angles=True):
    observed = observed_landmarks_3d[:, :468, :]
    if canonical is None:
        canonical = load_canonical_face_model(device=observed.device)
    canonical_b = canonical.unsqueeze(0).expand(observed.shape[0], -1, -1)
    R, t, _scale = umeyama_alignment(canonical_b, observed, with_scale=True)
    return R, t

# two detected faces, 478 MediaPipe face-mesh points (x, y, z) flattened into 1434 float32 columns
batch_output = Fex(np.random.default_rng(0).normal(size=(2, 478 * 3)).astype(np.float32))
'''
CELL = '''
landmarks_3d = convert_landmarks_3d(batch_output)
R, t = estimate_face_pose_from_mesh(landmarks_3d, return_euler_angles=False)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype")
CULPRITS = ["convert_landmarks_3d"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("fex.landmarks.astype(float).values", 'fex.landmarks.astype("float32").values')
CLEAN = False
