"""Look-alike: INADE's instance re-indexing turns the uint8 label map into float and builds the new ids with `.float()` before the masked puts.

Source: https://github.com/tzt101/INADE/blob/770a6671b6e0f5c8dd400e6e5dde4436181221ba/make_instances.py
`reid_instance1` converts the label map read from a PNG (uint8) with `inst_tensor.float()`,
makes `new_idx = torch.arange(0, ori_idx.size()[0]).float()` and then assigns through boolean
masks: `tmp[tmp != ori_idx[idx]] = -1`, `tmp[tmp == ori_idx[idx]] = new_idx[idx]`. A mix of
uint8 data, integer ids and masked index puts that reads like the "Index put requires the source
and destination dtypes match" bug (INADE issue #2, fixed exactly by the `.float()` here), but
destination and source are both float32.
Stand-in: the function as in `make_instances.py`; the ADE20K PNG is a small random uint8 array.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch


def reid_instance1(inst_tensor):
    inst_tensor = inst_tensor.float()
    ori_idx = torch.sort(torch.unique(inst_tensor))[0]
    new_idx = torch.arange(0, ori_idx.size()[0]).float()
    out_inst_tensor = torch.zeros_like(inst_tensor)
    for idx in range(ori_idx.size()[0]):
        tmp = inst_tensor.clone()
        tmp[tmp != ori_idx[idx]] = -1
        tmp[tmp == ori_idx[idx]] = new_idx[idx]
        tmp[tmp == -1] = 0
        out_inst_tensor += tmp
    return out_inst_tensor


rng = np.random.RandomState(0)
src_mask = rng.choice(np.array([0, 12, 37, 150], dtype=np.uint8), size=(32, 48))   # np.array(Image.open(...))
'''
CELL = '''
tag_label_tensor = torch.from_numpy(src_mask)
tag_inst = reid_instance1(tag_label_tensor).numpy()
tag_inst = np.uint8(tag_inst)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
