"""BEVFormer: the ego-motion `can_bus` vectors stay numpy arrays in `img_metas` (CPU by design) and are turned into tensors on the BEV queries' device with `new_tensor`.

Source: https://github.com/fundamentalvision/BEVFormer/blob/master/projects/mmdet3d_plugin/bevformer/modules/transformer.py
`PerceptionTransformer.get_bev_features` reads `each['can_bus']` (an 18-d numpy array the dataset
fills in) for every sample, computes the BEV shift in numpy, and builds
`shift = bev_queries.new_tensor([shift_x, shift_y]).permute(1, 0)` and
`can_bus = bev_queries.new_tensor([each['can_bus'] for each in kwargs['img_metas']])` before the
`can_bus_mlp`; `spatial_shapes` is made with `device=bev_pos.device`. Look-alike: host-side metadata
mixed into a GPU forward, converted explicitly on the right device; it runs.
Stand-in: `PerceptionTransformer.init_layers` and `get_bev_features` up to the encoder call (the
deformable-attention encoder is replaced by a pass-through), `prev_bev=None` (first frame),
BEVFormerHead's `bev_embedding` and LearnedPositionalEncoding; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.nn.init import normal_


class PassThroughEncoder(nn.Module):
    """Stand-in for BEVFormerEncoder (temporal self-attn + spatial cross-attn)."""
    def forward(self, bev_query, key, value, **kwargs):
        return bev_query.permute(1, 0, 2)


class PerceptionTransformer(nn.Module):
    def __init__(self, num_feature_levels=4, num_cams=6, embed_dims=256,
                 rotate_prev_bev=True, use_shift=True, use_can_bus=True,
                 can_bus_norm=True, use_cams_embeds=True, rotate_center=[100, 100]):
        super(PerceptionTransformer, self).__init__()
        self.encoder = PassThroughEncoder()
        self.embed_dims = embed_dims
        self.num_feature_levels = num_feature_levels
        self.num_cams = num_cams
        self.rotate_prev_bev = rotate_prev_bev
        self.use_shift = use_shift
        self.use_can_bus = use_can_bus
        self.can_bus_norm = can_bus_norm
        self.use_cams_embeds = use_cams_embeds
        self.init_layers()
        self.rotate_center = rotate_center

    def init_layers(self):
        """Initialize layers of the Detr3DTransformer."""
        self.level_embeds = nn.Parameter(torch.Tensor(
            self.num_feature_levels, self.embed_dims))
        self.cams_embeds = nn.Parameter(
            torch.Tensor(self.num_cams, self.embed_dims))
        self.reference_points = nn.Linear(self.embed_dims, 3)
        self.can_bus_mlp = nn.Sequential(
            nn.Linear(18, self.embed_dims // 2),
            nn.ReLU(inplace=True),
            nn.Linear(self.embed_dims // 2, self.embed_dims),
            nn.ReLU(inplace=True),
        )
        if self.can_bus_norm:
            self.can_bus_mlp.add_module('norm', nn.LayerNorm(self.embed_dims))
        normal_(self.level_embeds)
        normal_(self.cams_embeds)

    def get_bev_features(self, mlvl_feats, bev_queries, bev_h, bev_w,
                         grid_length=[0.512, 0.512], bev_pos=None, prev_bev=None, **kwargs):
        """
        obtain bev features.
        """
        bs = mlvl_feats[0].size(0)
        bev_queries = bev_queries.unsqueeze(1).repeat(1, bs, 1)
        bev_pos = bev_pos.flatten(2).permute(2, 0, 1)

        # obtain rotation angle and shift with ego motion
        delta_x = np.array([each['can_bus'][0]
                           for each in kwargs['img_metas']])
        delta_y = np.array([each['can_bus'][1]
                           for each in kwargs['img_metas']])
        ego_angle = np.array(
            [each['can_bus'][-2] / np.pi * 180 for each in kwargs['img_metas']])
        grid_length_y = grid_length[0]
        grid_length_x = grid_length[1]
        translation_length = np.sqrt(delta_x ** 2 + delta_y ** 2)
        translation_angle = np.arctan2(delta_y, delta_x) / np.pi * 180
        bev_angle = ego_angle - translation_angle
        shift_y = translation_length * \\
            np.cos(bev_angle / 180 * np.pi) / grid_length_y / bev_h
        shift_x = translation_length * \\
            np.sin(bev_angle / 180 * np.pi) / grid_length_x / bev_w
        shift_y = shift_y * self.use_shift
        shift_x = shift_x * self.use_shift
        shift = bev_queries.new_tensor(
            [shift_x, shift_y]).permute(1, 0)  # xy, bs -> bs, xy

        # add can bus signals
        can_bus = bev_queries.new_tensor(
            [each['can_bus'] for each in kwargs['img_metas']])  # [:, :]
        can_bus = self.can_bus_mlp(can_bus)[None, :, :]
        bev_queries = bev_queries + can_bus * self.use_can_bus

        feat_flatten = []
        spatial_shapes = []
        for lvl, feat in enumerate(mlvl_feats):
            bs, num_cam, c, h, w = feat.shape
            spatial_shape = (h, w)
            feat = feat.flatten(3).permute(1, 0, 3, 2)
            if self.use_cams_embeds:
                feat = feat + self.cams_embeds[:, None, None, :].to(feat.dtype)
            feat = feat + self.level_embeds[None,
                                            None, lvl:lvl + 1, :].to(feat.dtype)
            spatial_shapes.append(spatial_shape)
            feat_flatten.append(feat)

        feat_flatten = torch.cat(feat_flatten, 2)
        spatial_shapes = torch.as_tensor(
            spatial_shapes, dtype=torch.long, device=bev_pos.device)
        level_start_index = torch.cat((spatial_shapes.new_zeros(
            (1,)), spatial_shapes.prod(1).cumsum(0)[:-1]))

        feat_flatten = feat_flatten.permute(
            0, 2, 1, 3)  # (num_cam, H*W, bs, embed_dims)

        bev_embed = self.encoder(bev_queries, feat_flatten, feat_flatten, bev_h=bev_h,
                                 bev_w=bev_w, bev_pos=bev_pos, spatial_shapes=spatial_shapes,
                                 level_start_index=level_start_index, prev_bev=prev_bev,
                                 shift=shift, **kwargs)
        return bev_embed


class LearnedPositionalEncoding(nn.Module):
    def __init__(self, num_feats, row_num_embed=50, col_num_embed=50):
        super().__init__()
        self.row_embed = nn.Embedding(row_num_embed, num_feats)
        self.col_embed = nn.Embedding(col_num_embed, num_feats)

    def forward(self, mask):
        h, w = mask.shape[-2:]
        x = torch.arange(w, device=mask.device)
        y = torch.arange(h, device=mask.device)
        x_embed = self.col_embed(x)
        y_embed = self.row_embed(y)
        pos = torch.cat((x_embed.unsqueeze(0).repeat(h, 1, 1), y_embed.unsqueeze(1).repeat(
            1, w, 1)), dim=-1).permute(2, 0, 1).unsqueeze(0).repeat(mask.shape[0], 1, 1, 1)
        return pos


bev_h, bev_w, embed_dims = 50, 50, 256
transformer = PerceptionTransformer(num_feature_levels=1, num_cams=6, embed_dims=embed_dims)
bev_embedding = nn.Embedding(bev_h * bev_w, embed_dims)
positional_encoding = LearnedPositionalEncoding(embed_dims // 2, bev_h, bev_w)
device = torch.device('meta')   # the GPU, simulated with meta
transformer.to(device)
bev_embedding.to(device)
positional_encoding.to(device)

# img_metas from the dataset: per-sample dicts of numpy arrays (CPU, by design)
rng = np.random.RandomState(0)
img_metas = []
for i in range(2):
    can_bus = rng.randn(18)
    can_bus[-2] = 0.3 * (i + 1)
    img_metas.append(dict(can_bus=can_bus, lidar2img=[np.eye(4) for _ in range(6)]))
# image features from the backbone/neck on the GPU: one FPN level, bs=2, 6 cameras
mlvl_feats = [torch.randn(2, 6, embed_dims, 15, 25, device=device)]
'''
CELL = '''
bs, num_cam, _, _, _ = mlvl_feats[0].shape
dtype = mlvl_feats[0].dtype
bev_queries = bev_embedding.weight.to(dtype)
bev_mask = torch.zeros((bs, bev_h, bev_w), device=bev_queries.device).to(dtype)
bev_pos = positional_encoding(bev_mask).to(dtype)
bev_embed = transformer.get_bev_features(mlvl_feats, bev_queries, bev_h, bev_w,
                                         grid_length=(0.512 * 4, 0.512 * 4), bev_pos=bev_pos,
                                         img_metas=img_metas, prev_bev=None)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
