"""torchrec `JaggedTensor.from_dense` on cuda values builds its `lengths` on the CPU, so `to_padded_dense()` mixes devices.

Source: https://github.com/meta-pytorch/torchrec/pull/1737
"Fix device mismatch for JaggedTensor from_dense method": `from_dense(values)` concatenated the
per-sample value tensors (on cuda) but made `lengths = torch.IntTensor([value.size(0) for value in
values])`, always on the CPU, so any method that needs values and lengths on one device fails. The
fix creates the lengths on the device of the values. Stand-in: a reduced `JaggedTensor` with
`from_dense`, `offsets()` and a `to_padded_dense()` written with plain torch ops in place of the fbgemm
kernel (mask from lengths, gather from offsets).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class JaggedTensor:
    def __init__(self, values, lengths=None, offsets=None, weights=None):
        self._values, self._lengths, self._offsets, self._weights = values, lengths, offsets, weights

    @staticmethod
    def from_dense(values, weights=None):
        lengths = torch.IntTensor([value.size(0) for value in values])
        values_tensor = torch.cat(values, dim=0)
        weights_tensor = torch.cat(weights, dim=0) if weights is not None else None
        return JaggedTensor(values=values_tensor, weights=weights_tensor, lengths=lengths)

    def values(self):
        return self._values

    def lengths(self):
        return self._lengths

    def offsets(self):
        if self._offsets is None:
            self._offsets = torch.cumsum(self._lengths, dim=0) - self._lengths   # start of each row
        return self._offsets

    def to_padded_dense(self, desired_length, padding_value=0.0):
        # stand-in for torch.ops.fbgemm.jagged_to_padded_dense(values, [offsets], [N], padding_value)
        positions = torch.arange(desired_length, device=self._values.device).unsqueeze(0)
        mask = positions < self.lengths().unsqueeze(1)
        idx = (self.offsets().unsqueeze(1) + positions).clamp(max=self._values.numel() - 1)
        gathered = self._values.index_select(0, idx.flatten()).view(idx.shape)
        return torch.where(mask, gathered, torch.full_like(gathered, padding_value))

device = torch.device("cuda:0")
values = [
    torch.tensor([1.0, 2.0, 3.0]).to(device),
    torch.tensor([10.0]).to(device),
    torch.tensor([7.0, 8.0]).to(device),
]
jt = JaggedTensor.from_dense(values)
'''
CELL = '''
padded = jt.to_padded_dense(desired_length=4)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["jt"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("lengths = torch.IntTensor([value.size(0) for value in values])",
                  "lengths = torch.tensor([value.size(0) for value in values], dtype=torch.int32, device=values[0].device)")
CLEAN = False
