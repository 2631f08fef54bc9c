"""Look-alike: diffusers `randn_tensor` draws the initial latents from per-prompt CPU `torch.Generator`s and moves them to the GPU.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/utils/torch_utils.py
`randn_tensor(shape, generator, device, dtype)`: when the generators are CPU generators and the
target device is CUDA, it sets `rand_device = "cpu"`, draws one latent per generator on the CPU
(`torch.randn(shape, generator=generator[i], device=rand_device, dtype=dtype)`), `torch.cat`s them
and moves the result with `.to(device)`. Pipelines call it from `prepare_latents` and scale by the
scheduler's `init_noise_sigma`. CPU generators are the documented way to get reproducible images
across GPUs; nothing is on the wrong device. The pipeline and UNet are a minimal stand-in (a conv
in float16 on cuda:0); `randn_tensor` is diffusers' code.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


def randn_tensor(shape, generator=None, device=None, dtype=None, layout=None):
    # device on which tensor is created defaults to device
    if isinstance(device, str):
        device = torch.device(device)
    rand_device = device
    batch_size = shape[0]

    layout = layout or torch.strided
    device = device or torch.device("cpu")

    if generator is not None:
        gen_device_type = generator.device.type if not isinstance(generator, list) else generator[0].device.type
        if gen_device_type != device.type and gen_device_type == "cpu":
            rand_device = "cpu"
        elif gen_device_type != device.type and gen_device_type == "cuda":
            raise ValueError(f"Cannot generate a {device} tensor from a generator of type {gen_device_type}.")

    # make sure generator list of length 1 is treated like a non-list
    if isinstance(generator, list) and len(generator) == 1:
        generator = generator[0]

    if isinstance(generator, list):
        shape = (1,) + shape[1:]
        latents = [
            torch.randn(shape, generator=generator[i], device=rand_device, dtype=dtype, layout=layout)
            for i in range(batch_size)
        ]
        latents = torch.cat(latents, dim=0).to(device)
    else:
        latents = torch.randn(shape, generator=generator, device=rand_device, dtype=dtype, layout=layout).to(device)

    return latents


class Scheduler:
    init_noise_sigma = 1.0


device = torch.device("cuda:0")
unet = nn.Conv2d(4, 4, 3, padding=1).to(device=device, dtype=torch.float16)
scheduler = Scheduler()
prompts = ["a photo of a cat", "a photo of a dog", "a watercolor fox"]
generator = [torch.Generator("cpu").manual_seed(i) for i in range(len(prompts))]
'''
CELL = '''
shape = (len(prompts), 4, 64 // 8, 64 // 8)
latents = randn_tensor(shape, generator=generator, device=device, dtype=unet.weight.dtype)
latents = latents * scheduler.init_noise_sigma
noise_pred = unet(latents)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
