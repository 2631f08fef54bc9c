"""ComfyUI-Marigold: unticking `use_fp16` keeps running the cached half-precision pipeline on float32 images.

Source: https://github.com/kijai/ComfyUI-Marigold/issues/10
"Input type (float) and bias type (struct c10::Half) should be the same" after "un-checking the use
fp16", raised from `self.marigold_pipeline(sub_batch, ...)` in `MarigoldDepthEstimation.process`.
`process` casts the image to `precision` (float32 once fp16 is off), but it only (re)loads the
pipeline when `self.marigold_pipeline` is missing or None, so the pipeline loaded and `.half()`-ed
on the previous run (with `keep_model_loaded`) is reused in fp16. The node now also reloads when
`self.marigold_pipeline.unet.dtype != precision` (the condition in the current nodes.py; the
stand-in unet is an nn.Sequential, so the edit reads the dtype of its first layer).
Stand-ins: `MarigoldPipeline` (diffusers: VAE + UNet + scheduler) reduced to a conv VAE encoder /
decoder and a conv "unet" run for `num_inference_steps`; `from_pretrained` builds it with a fixed
seed instead of reading the checkpoint folder; `ensemble_depths` is a plain mean; ComfyUI's
ProgressBar dropped; the run is on the CPU (the user's GPU gives the same conv dtype check).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

class MarigoldPipeline(nn.Module):
    def __init__(self):
        super().__init__()
        self.vae_encoder = nn.Conv2d(3, 4, 3, stride=2, padding=1)
        self.unet = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.SiLU(), nn.Conv2d(16, 4, 3, padding=1))
        self.vae_decoder = nn.ConvTranspose2d(4, 1, 2, stride=2)

    @classmethod
    def from_pretrained(cls, checkpoint_path, enable_xformers=False, empty_text_embed=None):
        torch.manual_seed(0)
        return cls()

    def forward(self, rgb_in, num_inference_steps=10, show_pbar=False):
        rgb_latent = self.vae_encoder(rgb_in * 2.0 - 1.0)
        depth_latent = torch.randn_like(rgb_latent)
        for _ in range(num_inference_steps):
            noise_pred = self.unet(torch.cat([rgb_latent, depth_latent], dim=1))
            depth_latent = depth_latent - 0.1 * noise_pred
        return self.vae_decoder(depth_latent)

def ensemble_depths(depth_predictions, regularizer_strength=0.02, max_iter=5, tol=1e-3,
                    reduction='median', max_res=None, device=None):
    return depth_predictions.mean(0), depth_predictions.std(0)

class MarigoldDepthEstimation:
    def process(self, image, seed, denoise_steps, n_repeat, regularizer_strength, reduction_method,
                max_iter, tol, invert, keep_model_loaded, n_repeat_batch_size, use_fp16):
        batch_size = image.shape[0]
        precision = torch.float16 if use_fp16 else torch.float32
        device = torch.device("cpu")        # "cuda" if torch.cuda.is_available() in the node
        torch.manual_seed(seed)

        image = image.permute(0, 3, 1, 2).to(device).to(dtype=precision)

        if not hasattr(self, 'marigold_pipeline') or self.marigold_pipeline is None:
            # Load the model only if it hasn't been loaded before
            checkpoint_path = "checkpoints/Marigold_v1_merged"
            self.marigold_pipeline = MarigoldPipeline.from_pretrained(checkpoint_path, enable_xformers=False, empty_text_embed=None)
            self.marigold_pipeline = self.marigold_pipeline.to(device).half() if use_fp16 else self.marigold_pipeline.to(device)
            self.marigold_pipeline.unet.eval()

        out = []
        batch_process_size = n_repeat_batch_size
        with torch.no_grad():
            for i in range(batch_size):
                duplicated_batch = image[i].unsqueeze(0).repeat(n_repeat, 1, 1, 1)
                depth_maps = []
                for j in range(0, n_repeat, batch_process_size):
                    sub_batch = duplicated_batch[j:j + batch_process_size]
                    depth_maps_sub_batch = self.marigold_pipeline(sub_batch, num_inference_steps=denoise_steps, show_pbar=False)
                    for depth_map in depth_maps_sub_batch:
                        depth_map = torch.clip(depth_map, -1.0, 1.0)
                        depth_map = (depth_map + 1.0) / 2.0
                        depth_maps.append(depth_map)
                depth_predictions = torch.cat(depth_maps, dim=0).squeeze()
                if n_repeat > 1:
                    depth_map, pred_uncert = ensemble_depths(depth_predictions, regularizer_strength=regularizer_strength,
                                                             max_iter=max_iter, tol=tol, reduction=reduction_method,
                                                             max_res=None, device=device)
                depth_map = depth_map.unsqueeze(2).repeat(1, 1, 3)
                out.append(depth_map)
        if invert:
            outstack = 1.0 - torch.stack(out, dim=0).cpu()
        else:
            outstack = torch.stack(out, dim=0).cpu()
        if not keep_model_loaded:
            self.marigold_pipeline = None
        return (outstack,)

node = MarigoldDepthEstimation()
image = torch.rand(1, 64, 64, 3)         # ComfyUI IMAGE, B H W C
settings = dict(seed=123, denoise_steps=4, n_repeat=4, regularizer_strength=0.02, reduction_method='median',
                max_iter=5, tol=1e-3, invert=True, keep_model_loaded=True, n_repeat_batch_size=2)
# first queue: use_fp16 ticked (the default) -- loads and caches the half pipeline
(first_result,) = node.process(image, use_fp16=True, **settings)
'''
CELL = '''
# second queue: use_fp16 unticked
(ensembled_image,) = node.process(image, use_fp16=False, **settings)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["node.marigold_pipeline"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        if not hasattr(self, 'marigold_pipeline') or self.marigold_pipeline is None:",
                  "        if not hasattr(self, 'marigold_pipeline') or self.marigold_pipeline is None or self.marigold_pipeline.unet[0].weight.dtype != precision:")
CLEAN = False
