"""Look-alike: DAM4SAM / SAM 2 keep the video frames on the CPU (`offload_video_to_cpu=True`) and move each frame to the GPU when it is encoded.

Source: https://github.com/jovanavidenovic/DAM4SAM/issues/9
"why to put the variables to cpu?" - the maintainer: "we offload video frames to CPU memory, which is
useful when the video is very long. It is just for saving GPU memory." SAM 2's `init_state(...,
offload_video_to_cpu=True)` keeps `inference_state["images"]` on the CPU while the model is on the GPU,
and `_get_image_feature` does `inference_state["images"][frame_idx].to(device).float().unsqueeze(0)`
before `forward_image`. CPU frames next to a GPU model are deliberate here: no finding expected.
Stand-in: the predictor's `init_state` / `_get_image_feature` / a propagate loop over a mask head; the
"GPU" is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class SAM2VideoPredictor(nn.Module):
    def __init__(self, image_size=64):
        super().__init__()
        self.image_size = image_size
        self.image_encoder = nn.Sequential(nn.Conv2d(3, 16, 4, 4), nn.GELU(), nn.Conv2d(16, 16, 2, 2))
        self.mask_head = nn.Conv2d(16, 1, 1)
        self.register_buffer("img_mean", torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1), persistent=False)

    @property
    def device(self):
        return self.mask_head.weight.device

    def init_state(self, video_frames, offload_video_to_cpu=False, offload_state_to_cpu=False):
        compute_device = self.device
        images = video_frames if offload_video_to_cpu else video_frames.to(compute_device)
        return {"images": images, "num_frames": len(images), "offload_video_to_cpu": offload_video_to_cpu,
                "device": compute_device, "cached_features": {}}

    def forward_image(self, img_batch):
        return self.image_encoder((img_batch - self.img_mean))

    def _get_image_feature(self, inference_state, frame_idx, batch_size):
        image, backbone_out = inference_state["cached_features"].get(frame_idx, (None, None))
        if backbone_out is None:
            device = inference_state["device"]
            image = inference_state["images"][frame_idx].to(device).float().unsqueeze(0)
            backbone_out = self.forward_image(image)
            inference_state["cached_features"] = {frame_idx: (image, backbone_out)}
        return image.expand(batch_size, -1, -1, -1), backbone_out.expand(batch_size, -1, -1, -1)

    @torch.inference_mode()
    def propagate_in_video(self, inference_state):
        for frame_idx in range(inference_state["num_frames"]):
            _, feats = self._get_image_feature(inference_state, frame_idx, batch_size=1)
            low_res = self.mask_head(feats)
            yield frame_idx, F.interpolate(low_res, size=(self.image_size, self.image_size), mode="bilinear")

device = torch.device("meta")                                   # torch.device("cuda")
predictor = SAM2VideoPredictor().to(device)                    # build_sam2_video_predictor(model_cfg, ckpt, device)
video_frames = torch.rand(6, 3, 64, 64)                         # load_video_frames(...) on the CPU
inference_state = predictor.init_state(video_frames, offload_video_to_cpu=True)
'''
CELL = '''
video_segments = {}
for out_frame_idx, out_mask_logits in predictor.propagate_in_video(inference_state):
    video_segments[out_frame_idx] = out_mask_logits
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
