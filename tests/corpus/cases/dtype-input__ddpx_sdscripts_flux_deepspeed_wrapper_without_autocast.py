"""sd-scripts `flux_train.py --deepspeed --mixed_precision bf16 --full_bf16`: under DeepSpeed `accelerator.autocast()` does nothing, so the float32 timestep embedding meets the bf16 `time_in` weights.

Source: https://github.com/kohya-ss/sd-scripts/issues/1871
Launched with `accelerate launch --mixed_precision bf16 flux_train.py --deepspeed ... --full_bf16`, every
rank failed in the FLUX forward with "mat1 and mat2 must have the same dtype, but got Float and
BFloat16". Without `--deepspeed` the same run works: accelerate's autocast casts the float inputs, but
with DeepSpeed accelerate leaves mixed precision to the engine and its autocast is a no-op. The fix
(PR #2059/#2060, merged into `library/deepspeed_utils.py`) makes `DeepSpeedWrapper` wrap each model's
`forward` in `torch.autocast(device_type=model.device.type)` when mixed precision is on.
Stand-ins: a tiny FLUX (`img_in`, `time_in`, `guidance_in`, `vector_in`, `txt_in`) with the library's
`timestep_embedding`; `prepare_deepspeed_model` as before the fix; an Accelerator whose `autocast()`
is a null context under DeepSpeed and whose `prepare` returns the wrapper (the training loop calls
`flux` itself). CPU only (dtype bug); CPU autocast runs in bf16.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import argparse
import contextlib
import math
import torch
from torch import nn, Tensor

def timestep_embedding(t: Tensor, dim, max_period=10000, time_factor: float = 1000.0):
    t = time_factor * t
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(t.device)
    args = t[:, None].float() * freqs[None]
    embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if torch.is_floating_point(t):
        embedding = embedding.to(t)
    return embedding

class MLPEmbedder(nn.Module):
    def __init__(self, in_dim: int, hidden_dim: int):
        super().__init__()
        self.in_layer = nn.Linear(in_dim, hidden_dim, bias=True)
        self.silu = nn.SiLU()
        self.out_layer = nn.Linear(hidden_dim, hidden_dim, bias=True)
    def forward(self, x: Tensor) -> Tensor:
        return self.out_layer(self.silu(self.in_layer(x)))

class Flux(nn.Module):
    def __init__(self, in_channels=16, hidden_size=32, vec_in_dim=24, context_in_dim=20):
        super().__init__()
        self.img_in = nn.Linear(in_channels, hidden_size, bias=True)
        self.time_in = MLPEmbedder(in_dim=256, hidden_dim=hidden_size)
        self.vector_in = MLPEmbedder(vec_in_dim, hidden_size)
        self.guidance_in = MLPEmbedder(in_dim=256, hidden_dim=hidden_size)
        self.txt_in = nn.Linear(context_in_dim, hidden_size)
        self.final_layer = nn.Linear(hidden_size, in_channels)
    @property
    def device(self):
        return next(self.parameters()).device
    def forward(self, img, txt, timesteps, y, guidance=None):
        img = self.img_in(img)
        vec = self.time_in(timestep_embedding(timesteps, 256))
        vec = vec + self.guidance_in(timestep_embedding(guidance, 256))
        vec = vec + self.vector_in(y)
        txt = self.txt_in(txt)
        img = img + vec[:, None, :] + txt.mean(dim=1, keepdim=True)
        return self.final_layer(img)

# library/deepspeed_utils.py before the fix
def prepare_deepspeed_model(args: argparse.Namespace, **models):
    models = {k: v for k, v in models.items() if v is not None}

    class DeepSpeedWrapper(torch.nn.Module):
        def __init__(self, **kw_models) -> None:
            super().__init__()
            self.models = torch.nn.ModuleDict()

            for key, model in kw_models.items():
                if isinstance(model, list):
                    model = torch.nn.ModuleList(model)
                assert isinstance(model, torch.nn.Module), f"model must be an instance of torch.nn.Module, but got {key} is {type(model)}"
                self.models.update(torch.nn.ModuleDict({key: model}))

        def get_models(self):
            return self.models

    ds_model = DeepSpeedWrapper(**models)
    return ds_model

class Accelerator:
    # stand-in: with a DeepSpeed plugin accelerate does not use native AMP (the engine owns precision)
    def __init__(self, mixed_precision, deepspeed_plugin=None):
        self.mixed_precision = mixed_precision
        self.distributed_type = "DEEPSPEED" if deepspeed_plugin else "MULTI_GPU"
        self.native_amp = self.distributed_type != "DEEPSPEED"
        self.device = torch.device("cpu")
    def autocast(self):
        if self.native_amp:
            return torch.autocast(device_type=self.device.type, dtype=torch.bfloat16)
        return contextlib.nullcontext()
    def prepare(self, model):
        return model.to(torch.bfloat16)      # DeepSpeed bf16 engine: module in bf16

args = argparse.Namespace(deepspeed=True, mixed_precision="bf16", full_bf16=True, guidance_scale=1.0)
accelerator = Accelerator(mixed_precision=args.mixed_precision, deepspeed_plugin={"zero_stage": 2})
weight_dtype = torch.bfloat16
flux = Flux()
flux.to(weight_dtype)                         # --full_bf16
ds_model = prepare_deepspeed_model(args, mmdit=flux)
ds_model = accelerator.prepare(ds_model)
training_models = [ds_model]

bsz = 2
packed_noisy_model_input = torch.randn(bsz, 8, 16).to(weight_dtype)
t5_out = torch.randn(bsz, 6, 20).to(weight_dtype)
l_pooled = torch.randn(bsz, 24).to(weight_dtype)
timesteps = torch.rand(bsz) * 1000            # float32 from get_noisy_model_input_and_timesteps
guidance_vec = torch.full((bsz,), float(args.guidance_scale), device=accelerator.device)
'''
CELL = '''
with accelerator.autocast():
    model_pred = flux(
        img=packed_noisy_model_input,
        txt=t5_out,
        y=l_pooled,
        timesteps=timesteps / 1000,
        guidance=guidance_vec,
    )
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected mat1 and mat2 to have the same dtype")
CULPRITS = ["ds_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                self.models.update(torch.nn.ModuleDict({key: model}))",
                  """                if args.mixed_precision != "no":
                    forward_fn = model.forward
                    def forward(*f_args, _model=model, _forward_fn=forward_fn, **f_kwargs):
                        with torch.autocast(device_type=_model.device.type):
                            return _forward_fn(*f_args, **f_kwargs)
                    model.forward = forward
                self.models.update(torch.nn.ModuleDict({key: model}))""")
CLEAN = False
