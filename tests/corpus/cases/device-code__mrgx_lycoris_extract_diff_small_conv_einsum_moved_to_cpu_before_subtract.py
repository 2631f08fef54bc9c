"""LyCORIS `extract_diff` (LoRA extraction from the difference of two models) with `small_conv`: the rebuilt conv delta is moved to the CPU before it is subtracted from the GPU weight.

Source: https://github.com/KohakuBlueleaf/LyCORIS/issues/146
"extract_diff: Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!" at lycoris/utils/__init__.py L232-243. In the small-conv branch `diff = (root_weight -
torch.einsum(...).detach().cpu().contiguous())`: `root_weight` is the fine-tuned conv weight, moved to
the extract device with its module, while the einsum result is sent to the CPU inside the
parentheses. The user's fix, "moving the detach call chain outside of the inner parenthesis":
`diff = (root_weight - torch.einsum(...)).detach().cpu().contiguous()`; the maintainer: fixed in 2.1.0.
Stand-in: `extract_diff` reduced to its UNet pass over Conv2d layers with `mode="fixed"` and
`small_conv=True`; `extract_conv` is a full-rank SVD split (no rank slicing) and the
`torch.allclose` skip of unchanged layers is left out; the extract device is "cuda" written "cuda:0".
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def extract_conv(weight, mode="fixed", mode_param=0, device="cpu", is_cp=False):
    out_ch, in_ch, kernel_size, _ = weight.shape
    weight = weight.to(device)
    U, S, Vh = torch.linalg.svd(weight.reshape(out_ch, -1), full_matrices=False)
    lora_rank = S.shape[0]
    U = U @ torch.diag(S)
    diff = (weight - (U @ Vh).reshape(out_ch, in_ch, kernel_size, kernel_size)).detach()
    extract_weight_A = Vh.reshape(lora_rank, in_ch, kernel_size, kernel_size).detach()
    extract_weight_B = U.reshape(out_ch, lora_rank, 1, 1).detach()
    return (extract_weight_A, extract_weight_B, diff), "low rank"

def extract_diff(base_unet, db_unet, mode="fixed", linear_mode_param=0, conv_mode_param=0,
                 extract_device="cpu", use_bias=False, sparsity=0.98, small_conv=True):
    UNET_TARGET_REPLACE_MODULE = ["Conv2d"]
    LORA_PREFIX_UNET = "lora_unet"

    def make_state_dict(prefix, root_module, target_module, target_replace_modules):
        loras = {}
        temp = {}
        for name, module in root_module.named_modules():
            if module.__class__.__name__ in target_replace_modules:
                temp[name] = module

        for name, module in list((n, m) for n, m in target_module.named_modules() if n in temp):
            weights = temp[name]
            lora_name = (prefix + "." + name).replace(".", "_")
            layer = module.__class__.__name__
            root_weight = module.weight
            module = module.to(extract_device)
            weights = weights.to(extract_device)

            if layer == "Conv2d":
                is_linear = root_weight.shape[2] == 1 and root_weight.shape[3] == 1
                weight, decompose_mode = extract_conv(
                    (root_weight - weights.weight), mode,
                    linear_mode_param if is_linear else conv_mode_param, device=extract_device,
                )
                if decompose_mode == "low rank":
                    extract_a, extract_b, diff = weight
                if small_conv and not is_linear and decompose_mode == "low rank":
                    dim = extract_a.size(0)
                    (extract_c, extract_a, _), _ = extract_conv(
                        extract_a.transpose(0, 1), "fixed", dim, extract_device, True,
                    )
                    extract_a = extract_a.transpose(0, 1)
                    extract_c = extract_c.transpose(0, 1)
                    loras[f"{lora_name}.lora_mid.weight"] = extract_c.detach().cpu().contiguous().half()
                    diff = (
                        root_weight
                        - torch.einsum(
                            "i j k l, j r, p i -> p r k l",
                            extract_c,
                            extract_a.flatten(1, -1),
                            extract_b.flatten(1, -1),
                        )
                        .detach()
                        .cpu()
                        .contiguous()
                    )
                    del extract_c
            else:
                module = module.to("cpu")
                weights = weights.to("cpu")
                continue

            loras[f"{lora_name}.lora_down.weight"] = extract_a.detach().cpu().contiguous().half()
            loras[f"{lora_name}.lora_up.weight"] = extract_b.detach().cpu().contiguous().half()
            del extract_a, extract_b, diff
            module = module.to("cpu")
            weights = weights.to("cpu")
        return loras

    return make_state_dict(LORA_PREFIX_UNET, base_unet, db_unet, UNET_TARGET_REPLACE_MODULE)

class UNetStub(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(3, 4, 3, padding=1)
        self.conv_out = nn.Conv2d(4, 3, 3, padding=1)

base_unet = UNetStub()      # the base checkpoint
db_unet = UNetStub()        # the DreamBooth fine-tune, both loaded on the CPU
'''
CELL = '''
state_dict = extract_diff(base_unet, db_unet, mode="fixed", linear_mode_param=4, conv_mode_param=4,
                          extract_device="cuda:0", small_conv=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["extract_diff"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''                        )
                        .detach()
                        .cpu()
                        .contiguous()
                    )''', '''                        )
                    ).detach().cpu().contiguous()''')
CLEAN = False
