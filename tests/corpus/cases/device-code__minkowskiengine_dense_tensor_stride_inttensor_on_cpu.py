"""MinkowskiEngine `SparseTensor.dense()` on a GPU tensor: the stride is built as a CPU IntTensor.

Source: https://github.com/NVIDIA/MinkowskiEngine/pull/319
"When I called dense() function to convert sparse tensor back to dense tensor, I got this error:
RuntimeError: Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu! I think the problem comes from the local variable of `tensor_stride` which should
be initialised at the device that is being used." In `dense()`,
`tensor_stride = torch.IntTensor(self.tensor_stride)` is a CPU tensor, while `min_coordinate`
(from `self.C.min(0)`) and the coordinates are on cuda: `min_coordinate % tensor_stride` and
`coords // tensor_stride` mix devices. Stand-in: SparseTensor reduced to C/F/tensor_stride; the
network output is built directly; the divisibility assert (a data-dependent check) left out.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class SparseTensor:
    """Stand-in for MinkowskiEngine.SparseTensor: batched integer coordinates C, features F."""
    def __init__(self, features, coordinates, tensor_stride=1, D=3):
        self._F = features
        self._C = coordinates
        self._D = D
        self.tensor_stride = [tensor_stride] * D if isinstance(tensor_stride, int) else list(tensor_stride)

    @property
    def F(self):
        return self._F

    @property
    def C(self):
        return self._C

    @property
    def device(self):
        return self._F.device

    def dense(self, shape=None, min_coordinate=None, contract_stride=True):
        if shape is not None:
            assert isinstance(shape, torch.Size)
            assert len(shape) == self._D + 2  # batch and channel

        # Use int tensor for all operations
        tensor_stride = torch.IntTensor(self.tensor_stride)

        # New coordinates
        batch_indices = self.C[:, 0]

        if min_coordinate is None:
            min_coordinate, _ = self.C.min(0, keepdim=True)
            min_coordinate = min_coordinate[:, 1:]
            coords = self.C[:, 1:] - min_coordinate
        else:
            coords = self.C[:, 1:] - min_coordinate

        remainder = min_coordinate % tensor_stride   # assert (...).sum() == 0 in the library

        if coords.ndim == 1:
            coords = coords.unsqueeze(1)

        # return the contracted tensor
        if contract_stride:
            coords = coords // tensor_stride

        dense_F = torch.zeros(shape, dtype=self.F.dtype, device=self.F.device)
        tcoords = coords.t().long()
        batch_indices = batch_indices.long()
        # exec("dense_F[batch_indices, :, " + ", ".join(tcoords[i]...) + "] = self.F") in the library
        dense_F.permute(0, 2, 3, 4, 1).index_put_((batch_indices, tcoords[0], tcoords[1], tcoords[2]), self.F)
        return dense_F, min_coordinate, torch.IntTensor(self.tensor_stride)

device = torch.device("cuda:0")
n = 500
coords = torch.cat([torch.randint(0, 2, (n, 1)), torch.randint(0, 16, (n, 3)) * 4], dim=1).int().to(device)
feats = torch.randn(n, 32, device=device)
# output of a strided MinkowskiConvolution network (tensor stride 4)
out = SparseTensor(feats, coords, tensor_stride=4)
'''
CELL = '''
dense_out, min_coord, stride = out.dense(shape=torch.Size([2, 32, 16, 16, 16]))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["out"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        tensor_stride = torch.IntTensor(self.tensor_stride)\n",
                  "        tensor_stride = torch.IntTensor(self.tensor_stride).to(self.device)\n")
CLEAN = False
