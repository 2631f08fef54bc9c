"""fairchem AllScAIP at float64: the radius graph builds its periodic image offsets in the default dtype (float32) and multiplies them with the float64 cell.

Source: https://github.com/facebookresearch/fairchem/pull/2184
Running `allscaip-md-*` with `InferenceSettings(base_precision_dtype=torch.float64)` through
`FAIRChemCalculator` crashed in `build_radius_graph`: `src_pos = pos[:, None] + torch.mm(image_id, cell)[None, :]`
with "expected mat1 and mat2 to have the same dtype, but got: float != double", because `image_id` is made
with `torch.get_default_dtype()` while the fp64 batch's `cell` is double. The PR builds `image_id` with
`data.cell.dtype` (and the padded output buffers with their sources' dtypes). Stand-in: the image-offset
construction and the displacement step of the radius graph, followed by a cutoff count.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import itertools
import torch

def build_radius_graph(data, cutoff=6.0, max_image=1):
    pos, cell = data["pos"], data["cell"]
    images = list(itertools.product(range(-max_image, max_image + 1), repeat=3))
    image_id = torch.tensor(images, dtype=torch.get_default_dtype())
    src_pos = pos[:, None] + torch.mm(image_id, cell)[None, :]
    disp = src_pos[None, :, :, :] - pos[:, None, None, :]
    dist = disp.norm(dim=-1)
    return (dist < cutoff).sum(), disp

data = {
    "pos": torch.tensor([[0.0, 0.0, 0.0], [1.36, 1.36, 1.36]], dtype=torch.float64),
    "cell": torch.tensor([[0.0, 2.72, 2.72], [2.72, 0.0, 2.72], [2.72, 2.72, 0.0]], dtype=torch.float64),
}
'''
CELL = '''
n_edges, disp = build_radius_graph(data, cutoff=6.0)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["image_id"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dtype=torch.get_default_dtype())", "dtype=cell.dtype)")
CLEAN = False
