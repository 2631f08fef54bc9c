"""ActionFormer training step: the temporal point grid lives in non-persistent buffers and the CPU `video_list` (features, segments, labels) is moved inside the model.

Source: https://github.com/happyharrycn/actionformer_release/blob/main/libs/modeling/meta_archs.py
(with libs/modeling/loc_generators.py). `PointGenerator` builds all candidate points on the CPU in
`__init__` and keeps them in a `BufferList` of `register_buffer(..., persistent=False)`, so
`model.to(device)` moves them; `PtTransformer.forward` takes the dataloader's list of CPU dicts,
pads the features and sends them with `.to(self.device)`, and moves `x['segments']` and
`x['labels']` the same way before label assignment. A GPU training step runs. Stand-in: toy
conv1d FPN with two levels, label assignment without center sampling (one-hot via `scatter_`),
and focal/DIoU losses replaced by BCE and L1 masked sums (no `.item()`, no boolean indexing); the
GPU is played by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class BufferList(nn.Module):
    def __init__(self, buffers):
        super().__init__()
        for i, buffer in enumerate(buffers):
            # Use non-persistent buffer so the values are not saved in checkpoint
            self.register_buffer(str(i), buffer, persistent=False)

    def __len__(self):
        return len(self._buffers)

    def __iter__(self):
        return iter(self._buffers.values())

class PointGenerator(nn.Module):
    def __init__(self, max_seq_len, fpn_levels, scale_factor, regression_range):
        super().__init__()
        self.max_seq_len, self.fpn_levels = max_seq_len, fpn_levels
        self.scale_factor, self.regression_range = scale_factor, regression_range
        self.buffer_points = self._generate_points()

    def _generate_points(self):
        points_list = []
        initial_points = torch.arange(0, self.max_seq_len, 1.0)
        for l in range(self.fpn_levels):
            stride = self.scale_factor ** l
            reg_range = torch.as_tensor(self.regression_range[l], dtype=torch.float)
            fpn_stride = torch.as_tensor(stride, dtype=torch.float)
            points = initial_points[::stride][:, None]
            reg_range = reg_range[None].repeat(points.shape[0], 1)
            fpn_stride = fpn_stride[None].repeat(points.shape[0], 1)
            points_list.append(torch.cat((points, reg_range, fpn_stride), dim=1))
        return BufferList(points_list)

    def forward(self, feats):
        pts_list = []
        feat_lens = [feat.shape[-1] for feat in feats]
        for feat_len, buffer_pts in zip(feat_lens, self.buffer_points):
            pts_list.append(buffer_pts[:feat_len, :])
        return pts_list

class PtTransformer(nn.Module):
    def __init__(self, input_dim=32, embd_dim=32, num_classes=4, max_seq_len=32, fpn_levels=2):
        super().__init__()
        self.num_classes, self.max_seq_len = num_classes, max_seq_len
        self.embd = nn.Conv1d(input_dim, embd_dim, 3, padding=1)
        self.down = nn.Conv1d(embd_dim, embd_dim, 3, stride=2, padding=1)
        self.point_generator = PointGenerator(max_seq_len, fpn_levels, 2, [(0, 4), (4, 10000)])
        self.cls_head = nn.Conv1d(embd_dim, num_classes, 3, padding=1)
        self.reg_head = nn.Conv1d(embd_dim, 2, 3, padding=1)

    @property
    def device(self):
        return list(set(p.device for p in self.parameters()))[0]

    @torch.no_grad()
    def preprocessing(self, video_list, padding_val=0.0):
        feats = [x['feats'] for x in video_list]
        feats_lens = torch.as_tensor([feat.shape[-1] for feat in feats])
        batch_shape = [len(feats), feats[0].shape[0], self.max_seq_len]
        batched_inputs = feats[0].new_full(batch_shape, padding_val)
        for feat, pad_feat in zip(feats, batched_inputs):
            pad_feat[..., :feat.shape[-1]].copy_(feat)
        batched_masks = torch.arange(self.max_seq_len)[None, :] < feats_lens[:, None]
        batched_inputs = batched_inputs.to(self.device)
        batched_masks = batched_masks.unsqueeze(1).to(self.device)
        return batched_inputs, batched_masks

    def label_points(self, points, gt_segments, gt_labels):
        concat_points = torch.cat(points, dim=0)
        gt_cls, gt_offset = [], []
        for gt_segment, gt_label in zip(gt_segments, gt_labels):
            left = concat_points[:, 0, None] - gt_segment[None, :, 0]
            right = gt_segment[None, :, 1] - concat_points[:, 0, None]
            reg_targets = torch.stack((left, right), dim=-1) / concat_points[:, 3, None, None]
            inside = (reg_targets.min(-1)[0] > 0).float()
            one_hot = torch.zeros(gt_label.shape[0], self.num_classes, device=gt_label.device).scatter_(
                1, gt_label[:, None], 1.0)
            gt_cls.append(torch.clamp(inside @ one_hot, max=1.0))
            gt_offset.append((reg_targets * inside[..., None]).sum(1))
        return gt_cls, gt_offset

    def forward(self, video_list):
        batched_inputs, batched_masks = self.preprocessing(video_list)
        f0 = F.relu(self.embd(batched_inputs)) * batched_masks
        f1 = F.relu(self.down(f0))
        fpn_feats, fpn_masks = [f0, f1], [batched_masks, batched_masks[:, :, ::2]]
        points = self.point_generator(fpn_feats)
        out_cls = torch.cat([self.cls_head(f).transpose(1, 2) for f in fpn_feats], dim=1)
        out_offsets = torch.cat([F.relu(self.reg_head(f)).transpose(1, 2) for f in fpn_feats], dim=1)
        valid_mask = torch.cat([m.squeeze(1) for m in fpn_masks], dim=1).float()

        gt_segments = [x['segments'].to(self.device) for x in video_list]
        gt_labels = [x['labels'].to(self.device) for x in video_list]
        gt_cls_labels, gt_offsets = self.label_points(points, gt_segments, gt_labels)
        gt_cls = torch.stack(gt_cls_labels)
        pos_mask = (gt_cls.sum(-1) > 0).float() * valid_mask
        cls_loss = (F.binary_cross_entropy_with_logits(out_cls, gt_cls, reduction='none').sum(-1) * valid_mask).sum()
        reg_loss = ((out_offsets - torch.stack(gt_offsets)).abs().sum(-1) * pos_mask).sum()
        num_pos = torch.clamp(pos_mask.sum(), min=1.0)
        return {'cls_loss': cls_loss / num_pos, 'reg_loss': reg_loss / num_pos,
                'final_loss': (cls_loss + reg_loss) / num_pos}

device = torch.device('meta')    # the GPU, simulated with meta
model = PtTransformer().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)

# trivial_batch_collator output: a list of per-video dicts, all on the CPU
video_list = [
    {'video_id': 'video_test_0000004', 'feats': torch.randn(32, 24),
     'segments': torch.tensor([[2.0, 9.5], [14.0, 20.0]]), 'labels': torch.tensor([1, 3])},
    {'video_id': 'video_test_0000006', 'feats': torch.randn(32, 30),
     'segments': torch.tensor([[5.0, 12.0]]), 'labels': torch.tensor([0])},
]
'''
CELL = '''
model.train()
optimizer.zero_grad(set_to_none=True)
losses = model(video_list)
losses['final_loss'].backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
