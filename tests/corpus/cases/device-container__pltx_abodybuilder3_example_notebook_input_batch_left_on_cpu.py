"""ABodyBuilder3 example notebook on a GPU machine: the model comes back from its checkpoint on cuda:0, the input dict stays on the CPU.

Source: https://github.com/Exscientia/abodybuilder3/issues/5
Following notebooks/example.ipynb, `output = model(ab_input_batch, ab_input_batch["aatype"])` failed in
the structure module's `z_initial = self.linear_in_edge(z_initial)` with "Expected all tensors to be
on the same device, but found at least two devices, cpu and cuda:0!". `LitABB3.load_from_checkpoint`
restores the weights on the GPU they were saved from, while `string_to_input` builds every feature
(`single`, `pair`, `aatype`, ...) on the CPU. The fix (PR #7, "Fix: tensors on cpu and gpu at same
time") moves each value of `ab_input_batch` to `device` (and the model to the same device).
Stand-ins: `string_to_input` (random node/edge features of the real shapes), a two-input
structure-module head, `LitABB3.load_from_checkpoint` returning the module on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

restype_order_with_x = {c: i for i, c in enumerate("ARNDCQEGHILKMFPSTWYVX")}

def string_to_input(heavy, light, device="cpu"):
    aatype = torch.tensor([restype_order_with_x[c] for c in heavy + light])
    is_heavy = torch.tensor([1] * len(heavy) + [0] * len(light))
    residue_index = torch.cat((torch.arange(len(heavy)), torch.arange(len(light)) + 500))
    n = len(aatype)
    return {
        "is_heavy": is_heavy,
        "aatype": aatype,
        "residue_index": residue_index,
        "single": torch.randn(1, n, 23),
        "pair": torch.randn(1, n, n, 132),
    }

class StructureModule(nn.Module):
    def __init__(self, c_s=23, c_z=132, c_hidden=32):
        super().__init__()
        self.linear_in_edge = nn.Linear(c_z, c_hidden)
        self.linear_in = nn.Linear(c_s, c_hidden)
        self.angle_out = nn.Linear(c_hidden, 14)

    def forward(self, input_dict, aatype):
        z_initial = input_dict["pair"]
        z_initial = self.linear_in_edge(z_initial)
        s = self.linear_in(input_dict["single"])
        s = s + z_initial.mean(dim=-2)
        return {"angles": self.angle_out(s), "aatype": aatype}

class LitABB3(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = StructureModule()

    @classmethod
    def load_from_checkpoint(cls, path):
        return cls().to("cuda:0")          # weights restored on the GPU they were saved from

heavy = "QVQLVQSGAEVKKPGSSVKVSCKASGGTFSSLAISWVRQAPGQGLEWMGGIIPIFGTANYAQKFQGRVTITADESTSTAYMELSSLRSEDTAVYYCARGGSVSGTLVDFDIWGQGTMVTVSS"
light = "DIQMTQSPSTLSASVGDRVTITCRASQSISSWLAWYQQKPGKAPKLLIYKASSLESGVPSRFSGSGSGTEFTLTISSLQPDDFATYYCQQYNIYPITFGGGTKVEIK"

module = LitABB3.load_from_checkpoint("../output/plddt-loss/best_second_stage.ckpt")
model = module.model

ab_input = string_to_input(heavy=heavy, light=light)
ab_input_batch = {
    key: (value.unsqueeze(0) if key not in ["single", "pair"] else value)
    for key, value in ab_input.items()
}  # add batch dim
'''
CELL = '''
output = model(ab_input_batch, ab_input_batch["aatype"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ab_input_batch"]
FIX = "namespace"
REFERENCE_FIX = '''
device = torch.device("cuda:0")
ab_input_batch = {key: value.to(device) for key, value in ab_input_batch.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
