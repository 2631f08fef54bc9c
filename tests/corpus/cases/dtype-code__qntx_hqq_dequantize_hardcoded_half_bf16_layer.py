"""HQQ v0.1 quantizing a bf16 Linear: `Quantizer.dequantize` rebuilds the weight with a hard-coded `.half()`, so the bf16 activations meet an fp16 W_est.

Source: https://github.com/dropbox/hqq/issues/7
"Issues with HQQLinear compatability when quantized from bf16": dropping `HQQLinear` into TGI in place of
bnb-4bit, `layer = nn.Linear(..., dtype=weight.dtype)` + `HQQLinear(layer, BaseQuantizeConfig(nbits=4,
group_size=64, quant_zero=True, quant_scale=False))` works for fp16 models but a bf16 model
(TinyLlama) fails in `forward_pytorch`: `out = torch.matmul(x, W_est.t())` -> "expected mat1 and mat2 to
have the same dtype, but got: c10::BFloat16 != c10::Half". In hqq 0.1.x `Quantizer.quantize` works on
`tensor.float()`, `to_inplace` stores the float32 meta as `.half()` and `dequantize` unpacks with
`.half()`: the weight always comes back fp16. The issue is labelled bug and closed; hqq later added a
`compute_dtype` to HQQLinear/dequantize (commit d565c45, "dequantize CUDA kernels + compute_dtype
support") so W_est follows the model's dtype; the reference edit casts at the matmul to the same effect.
Stand-ins: hqq 0.1.x Quantizer/HQQLinear reduced (4-bit u8 packing, no weight optimizer, `.cuda()`
moves replaced by a `device` argument); the TGI loading code is the user's.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
from enum import Enum

class BitPack:
    @staticmethod
    def pack_4bit_u8(W_q):
        W_q = W_q.to(torch.uint8)
        step = W_q.shape[0] // 2
        return (W_q[:step] << 4) | W_q[step:]
    @staticmethod
    def unpack_4bit_u8(W_q):
        return torch.cat([(W_q & 0b11110000) >> 4, W_q & 0b00001111], axis=0)
    @staticmethod
    def pack_8bit_u8(W_q):
        return W_q.to(torch.uint8)
    @staticmethod
    def unpack_8bit_u8(W_q):
        return W_q

class Quantizer:
    bit_to_packing = {8: '8bit_u8', 4: '4bit_u8'}
    pack = {'8bit_u8': BitPack.pack_8bit_u8, '4bit_u8': BitPack.pack_4bit_u8}
    unpack = {'8bit_u8': BitPack.unpack_8bit_u8, '4bit_u8': BitPack.unpack_4bit_u8}

    @classmethod
    def quantize(cls, tensor, nbits=4, channel_wise=True, group_size=64, optimize=False, round_zero=False, axis=0):
        W = tensor.float()
        shape = W.shape
        if (group_size is not None) and channel_wise:
            W = W.reshape([-1, group_size]) if (axis == 1) else W.reshape([group_size, -1])
        if channel_wise == False:
            _min, _max = W.min(), W.max()
        else:
            _min = W.min(axis=axis, keepdim=True)[0]
            _max = W.max(axis=axis, keepdim=True)[0]
        max_v = 2**nbits - 1
        scale = (max_v / (_max - _min)).clamp(max=2e4)
        zero = -_min * scale
        if round_zero: zero = torch.round(zero)
        W_q = torch.round(W * scale + zero).clamp(0, max_v)
        meta = {'nbits': nbits, 'group_size': group_size, 'shape': shape, 'scale': 1. / scale, 'zero': zero,
                'axis': axis, 'packing': Quantizer.bit_to_packing[nbits]}
        W_q = Quantizer.pack[meta['packing']](W_q)
        return W_q, meta

    @classmethod
    def dequantize(cls, W_q, meta):
        W_q_p = Quantizer.unpack[meta['packing']](W_q).half()
        W_r = ((W_q_p - meta['zero']) * meta['scale']).reshape(meta['shape'])
        return W_r

    @classmethod
    def to_inplace(cls, W_q, meta, device):
        W_q = W_q.to(device).contiguous()
        for key in meta:
            if type(meta[key]) == torch.Tensor:
                meta[key] = (meta[key].half() if meta[key].dtype == torch.float32 else meta[key]).to(device).contiguous()
        return W_q, meta

def BaseQuantizeConfig(nbits=4, group_size=64, quant_zero=True, quant_scale=False):
    weight_quant_params = {'nbits': nbits, 'channel_wise': True, 'group_size': group_size, 'optimize': True, 'round_zero': True if nbits == 4 else False}
    scale_quant_params = {'nbits': 8, 'channel_wise': True, 'group_size': 128, 'optimize': False} if (quant_scale) else None
    zero_quant_params = {'nbits': 8, 'channel_wise': False, 'group_size': None, 'optimize': False} if (quant_zero) else None
    return {'weight_quant_params': weight_quant_params, 'scale_quant_params': scale_quant_params, 'zero_quant_params': zero_quant_params}

class HQQBackend(Enum):
    PYTORCH = "forward_pytorch"

class HQQLinear(nn.Module):
    backend = HQQBackend.PYTORCH

    def __init__(self, linear_layer, quant_config, del_orig=True, device='cpu'):
        super().__init__()
        self.ready = False
        self.device = device
        self.quant_config = quant_config
        self.set_backend(HQQLinear.backend)
        if linear_layer is not None:
            self.bias = None if (linear_layer.bias is None) else linear_layer.bias.half().to(device)
            self.quantize(linear_layer.weight.data, **quant_config)
        if del_orig: del linear_layer

    def quantize(self, W, weight_quant_params, scale_quant_params, zero_quant_params):
        quant_scale = scale_quant_params is not None
        quant_zero = zero_quant_params is not None
        W_q, meta = Quantizer.quantize(W, **weight_quant_params)
        meta.update({'quant_scale': quant_scale, 'quant_zero': quant_zero})
        if meta['quant_zero']:
            meta['zero_q'], meta['meta_zero'] = Quantizer.quantize(meta['zero'], **zero_quant_params); del meta['zero']
        self.W_q, self.meta = Quantizer.to_inplace(W_q, meta, self.device)
        if meta['quant_zero']:
            self.meta['zero_q'], self.meta['meta_zero'] = Quantizer.to_inplace(meta['zero_q'], meta['meta_zero'], self.device)
        self.ready = True

    @torch.inference_mode()
    def dequantize(self):
        assert self.ready, "model was not quantized"
        W_q, meta = self.W_q, self.meta
        del_keys = []
        if meta['quant_zero']:
            meta['zero'] = Quantizer.dequantize(meta['zero_q'], meta['meta_zero']); del_keys.append('zero')
        W_est = Quantizer.dequantize(W_q, meta)
        for key in del_keys: del meta[key]
        return W_est

    @classmethod
    def set_backend(cls, backend):
        HQQLinear.backend = backend
        cls.forward = getattr(cls, HQQLinear.backend.value)

    @torch.no_grad()
    def forward_pytorch(self, x):
        W_est = self.dequantize()
        out = torch.matmul(x, W_est.t())
        if self.bias is not None: out += self.bias
        del W_est
        return out

# text_generation_server/utils/layers.py: quantize = "hqq", TinyLlama checkpoint in bfloat16
weight = torch.randn(256, 128, dtype=torch.bfloat16) / 10
bias = None
HQQLinear.set_backend(HQQBackend.PYTORCH)
layer = nn.Linear(weight.shape[1], weight.shape[0], bias=bias is not None, dtype=weight.dtype)
with torch.no_grad():
    layer.weight.data = weight
    if bias is not None:
        layer.bias.data = bias
linear = HQQLinear(layer, BaseQuantizeConfig(nbits=4, group_size=64, quant_zero=True, quant_scale=False), del_orig=True)
hidden_states = torch.randn(1, 7, 128, dtype=torch.bfloat16)
'''
CELL = '''
out = linear(hidden_states)
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected mat1 and mat2 to have the same dtype")
CULPRITS = ["linear"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        out = torch.matmul(x, W_est.t())\n", "        out = torch.matmul(x, W_est.t().to(x.dtype))\n")
CLEAN = False
