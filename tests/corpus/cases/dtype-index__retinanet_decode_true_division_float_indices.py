"""retinanet-examples' box decoding computes anchor/row indices with `/`, which yields floats.

Source: https://github.com/NVIDIA/retinanet-examples/issues/335
`odtk/box.py` decode: `y = (indices / width) % height` and `a = indices / num_classes / height /
width` are true divisions of the int64 top-k indices, so `box_head[a, :, y, x]` raised
"IndexError: tensors used as indices must be long, byte or bool tensors". The reporter's fix
uses floor division `//`. Reduced: one batch, the decode loop without anchors/NMS.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch

def decode(all_cls_head, all_box_head, threshold=0.05, top_n=1000):
    batch_size = all_cls_head.size()[0]
    num_boxes = 4
    num_anchors = 9
    num_classes = all_cls_head.size()[1] // num_anchors
    height, width = all_cls_head.size()[-2:]
    out_boxes, out_classes = [], []
    for batch in range(batch_size):
        cls_head = all_cls_head[batch, :, :, :].contiguous().view(-1)
        box_head = all_box_head[batch, :, :, :].contiguous().view(-1, num_boxes)
        keep = (cls_head >= threshold).nonzero().view(-1)
        if keep.nelement() == 0:
            continue
        scores = torch.index_select(cls_head, 0, keep)
        scores, indices = torch.topk(scores, min(top_n, keep.size()[0]), dim=0)
        indices = torch.index_select(keep, 0, indices).view(-1)
        classes = (indices / width / height) % num_classes
        classes = classes.type(all_cls_head.type())
        x = indices % width
        y = (indices / width) % height
        a = indices / num_classes / height / width
        box_head = box_head.view(num_anchors, num_boxes, height, width)
        boxes = box_head[a, :, y, x]
        out_boxes.append(boxes)
        out_classes.append(classes)
    return out_boxes, out_classes

torch.manual_seed(0)
cls_head = torch.rand(1, 9 * 3, 8, 8)
box_head = torch.randn(1, 9 * 4, 8, 8)
'''
CELL = '''
boxes, classes = decode(cls_head, box_head)
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["a", "y"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "y = (indices / width) % height\n        a = indices / num_classes / height / width",
    "y = (indices // width) % height\n        a = indices // num_classes // height // width",
)
CLEAN = False
