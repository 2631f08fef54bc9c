"""efficientdet-pytorch: an image with no ground-truth boxes makes ArgMaxMatcher return its -1 matches on the CPU.

Source: https://github.com/rwightman/efficientdet-pytorch/issues/105
"Missing device argument": in effdet/object_detection/argmax_matcher.py `_match_when_rows_are_empty`
returns `-1 * torch.ones(similarity_matrix.shape[1], dtype=torch.long)` - a CPU tensor - so labeling
the anchors of an image without boxes on the GPU fails when the matches are used to gather the
ground truth ("never cropped up in my COCO training but did on other datasets"). The fix adds
`device=similarity_matrix.device`. Stand-in: AnchorLabeler / TargetAssigner / ArgMaxMatcher /
Match reduced to the path an empty image takes (no force-match, a plain IoU, a trivial box coder);
the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch

class BoxList:
    def __init__(self, boxes):
        self.data = {'boxes': boxes}

    def boxes(self):
        return self.data['boxes']

    def device(self):
        return self.data['boxes'].device

def iou(boxlist1, boxlist2):
    b1, b2 = boxlist1.boxes(), boxlist2.boxes()
    lt = torch.max(b1[:, None, :2], b2[None, :, :2])
    rb = torch.min(b1[:, None, 2:], b2[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    a1 = (b1[:, 2] - b1[:, 0]) * (b1[:, 3] - b1[:, 1])
    a2 = (b2[:, 2] - b2[:, 0]) * (b2[:, 3] - b2[:, 1])
    return inter / (a1[:, None] + a2[None, :] - inter)

class IouSimilarity:
    def compare(self, boxlist1, boxlist2):
        return iou(boxlist1, boxlist2)

class Match:
    def __init__(self, match_results):
        self.match_results = match_results

    def matched_column_indicator(self):
        return self.match_results >= 0

    def gather_based_on_match(self, input_tensor, unmatched_value, ignored_value):
        input_tensor = torch.cat([ignored_value, unmatched_value, input_tensor], dim=0)
        gather_indices = torch.clamp(self.match_results + 2, min=0)
        return torch.index_select(input_tensor, 0, gather_indices)

class ArgMaxMatcher:
    def __init__(self, matched_threshold, unmatched_threshold=None, negatives_lower_than_unmatched=True):
        self._matched_threshold = matched_threshold
        self._unmatched_threshold = matched_threshold if unmatched_threshold is None else unmatched_threshold
        self._negatives_lower_than_unmatched = negatives_lower_than_unmatched

    def _match_when_rows_are_empty(self, similarity_matrix):
        return -1 * torch.ones(similarity_matrix.shape[1], dtype=torch.long)

    def _match_when_rows_are_non_empty(self, similarity_matrix):
        matched_vals, matches = torch.max(similarity_matrix, 0)
        below_unmatched_threshold = self._unmatched_threshold > matched_vals
        indicator = below_unmatched_threshold.to(dtype=matches.dtype)
        return matches * (1 - indicator) - indicator

    def match(self, similarity_matrix):
        if similarity_matrix.shape[0] == 0:
            return Match(self._match_when_rows_are_empty(similarity_matrix))
        return Match(self._match_when_rows_are_non_empty(similarity_matrix))

class FasterRcnnBoxCoder:
    def encode(self, boxes, anchors):
        return (boxes.boxes() - anchors.boxes()) / 10.0

class TargetAssigner:
    def __init__(self, similarity_calc, matcher, box_coder):
        self._similarity_calc = similarity_calc
        self._matcher = matcher
        self._box_coder = box_coder

    def assign(self, anchors, groundtruth_boxes, groundtruth_labels=None):
        match_quality_matrix = self._similarity_calc.compare(groundtruth_boxes, anchors)
        match = self._matcher.match(match_quality_matrix)
        reg_targets = self._create_regression_targets(anchors, groundtruth_boxes, match)
        cls_targets = match.gather_based_on_match(
            groundtruth_labels, unmatched_value=groundtruth_labels.new_zeros(1),
            ignored_value=groundtruth_labels.new_full((1,), -1))
        return cls_targets, reg_targets, match

    def _create_regression_targets(self, anchors, groundtruth_boxes, match):
        device = anchors.device()
        zero_box = torch.zeros((1, 4), device=device)
        matched_gt_boxes = match.gather_based_on_match(groundtruth_boxes.boxes(), unmatched_value=zero_box,
                                                       ignored_value=zero_box)
        matched_reg_targets = self._box_coder.encode(BoxList(matched_gt_boxes), anchors)
        unmatched_ignored_reg_targets = torch.zeros_like(matched_reg_targets)
        matched_anchors_mask = match.matched_column_indicator()
        return torch.where(matched_anchors_mask.unsqueeze(1), matched_reg_targets, unmatched_ignored_reg_targets)

class AnchorLabeler:
    def __init__(self, anchors, num_classes, match_threshold=0.5):
        matcher = ArgMaxMatcher(match_threshold, unmatched_threshold=match_threshold)
        self.target_assigner = TargetAssigner(IouSimilarity(), matcher, FasterRcnnBoxCoder())
        self.anchors = anchors
        self.num_classes = num_classes

    def label_anchors(self, gt_boxes, gt_classes):
        cls_targets, box_targets, matches = self.target_assigner.assign(
            BoxList(self.anchors), BoxList(gt_boxes), gt_classes)
        num_positives = (matches.match_results > -1).float().sum()
        return cls_targets, box_targets, num_positives

device = torch.device('meta')                      # 'cuda:0'
xy = torch.rand(64, 2) * 100
anchor_boxes = torch.cat([xy, xy + 16], dim=1).to(device)
anchor_labeler = AnchorLabeler(anchor_boxes, num_classes=3, match_threshold=0.5)
# an image of the custom dataset with no annotated objects
gt_boxes = torch.zeros((0, 4)).to(device)
gt_classes = torch.zeros((0,), dtype=torch.long).to(device)
'''
CELL = '''
cls_targets, box_targets, num_positives = anchor_labeler.label_anchors(gt_boxes, gt_classes)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["anchor_labeler"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return -1 * torch.ones(similarity_matrix.shape[1], dtype=torch.long)",
                  "return -1 * torch.ones(similarity_matrix.shape[1], dtype=torch.long, device=similarity_matrix.device)")
CLEAN = False
