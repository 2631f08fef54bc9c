"""Fooocus Image Prompt (IP-Adapter): the image-prompt keys/values are stored on the CPU and cast to the attention query at every step.

Source: https://github.com/lllyasviel/Fooocus/blob/main/extras/ip_adapter.py
`preprocess` runs CLIP vision and the IP-Adapter projection on the GPU, then keeps the per-layer
keys/values on the CPU (`ip_conds = [m(cond).cpu() for m in ip_layers.model.to_kvs]`, likewise the
cached `ip_unconds`). The attn2 patcher built by `patch_model` moves them onto the query's device and
dtype with `.to(q)` before concatenating them with the cuda text keys/values. CPU tensors meeting a
cuda attention by design: it runs.
Stand-ins: the to_kv projections, `preprocess` after the CLIP step, the patcher with a plain
attention in place of `sdp`; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class IPLayers(nn.Module):
    def __init__(self, n_layers=2, cond_dim=32, inner=16):
        super().__init__()
        self.to_kvs = nn.ModuleList([nn.Linear(cond_dim, inner, bias=False) for _ in range(2 * n_layers)])

load_device = torch.device("cuda:0")
ip_layers = IPLayers().to(load_device)

@torch.no_grad()
def preprocess(cond, ip_negative):
    cond = cond.to(device=load_device)
    uncond = ip_negative.to(device=load_device)
    ip_unconds = [m(uncond).cpu() for m in ip_layers.to_kvs]
    ip_conds = [m(cond).cpu() for m in ip_layers.to_kvs]
    return ip_conds, ip_unconds

def sdp(q, k, v, extra_options):
    attn = torch.softmax(q @ k.transpose(1, 2) / q.shape[-1] ** 0.5, dim=-1)
    return attn @ v

@torch.no_grad()
def patch_model(tasks):
    def make_attn_patcher(ip_index):
        def patcher(n, context_attn2, value_attn2, extra_options):
            org_dtype = n.dtype
            current_step = extra_options["current_step"]
            cond_or_uncond = extra_options['cond_or_uncond']

            q = n
            k = [context_attn2]
            v = [value_attn2]

            for (cs, ucs), cn_stop, cn_weight in tasks:
                if current_step < cn_stop:
                    ip_k_c = cs[ip_index * 2].to(q)
                    ip_v_c = cs[ip_index * 2 + 1].to(q)
                    ip_k_uc = ucs[ip_index * 2].to(q)
                    ip_v_uc = ucs[ip_index * 2 + 1].to(q)

                    ip_k = torch.cat([(ip_k_c, ip_k_uc)[i] for i in cond_or_uncond], dim=0)
                    ip_v = torch.cat([(ip_v_c, ip_v_uc)[i] for i in cond_or_uncond], dim=0)

                    ip_v_mean = torch.mean(ip_v, dim=1, keepdim=True)
                    ip_v_offset = ip_v - ip_v_mean
                    B, F, C = ip_k.shape
                    channel_penalty = float(C) / 1280.0
                    weight = cn_weight * channel_penalty
                    ip_k = ip_k * weight
                    ip_v = ip_v_offset + ip_v_mean * weight

                    k.append(ip_k)
                    v.append(ip_v)

            k = torch.cat(k, dim=1)
            v = torch.cat(v, dim=1)
            out = sdp(q, k, v, extra_options)
            return out.to(dtype=org_dtype)
        return patcher
    return [make_attn_patcher(i) for i in range(len(ip_layers.to_kvs) // 2)]

image_embeds = torch.randn(1, 4, 32)           # CLIP vision -> image_proj_model output
ip_negative = torch.zeros(1, 4, 32)
ip_conds, ip_unconds = preprocess(image_embeds, ip_negative)
patchers = patch_model([((ip_conds, ip_unconds), 0.6, 0.8)])

hidden = torch.randn(2, 64, 16, device=load_device)        # attn2 query for [uncond, cond]
context_k = torch.randn(2, 77, 16, device=load_device)
context_v = torch.randn(2, 77, 16, device=load_device)
extra_options = {"cond_or_uncond": [1, 0], "current_step": 0.2}
'''
CELL = '''
out = patchers[0](hidden, context_k, context_v, extra_options)
out = patchers[1](out, context_k, context_v, extra_options)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
