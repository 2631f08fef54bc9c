"""rwkv pip package on one GPU (`strategy='cuda fp16'`): the embedding table stays on the CPU by design, each layer moves `x` to its own device.

Source: https://github.com/BlinkDL/ChatRWKV/blob/main/rwkv_pip_package/src/rwkv/model.py
`RWKV.__init__` moves every weight to its strategy device except `emb.*` (`if 'emb.' in x: w[x] =
w[x].contiguous()`), which stays in RAM to save VRAM (BlinkDL, RWKV-LM #249); `forward` looks the
tokens up on the CPU and does `x = x.to(dtype=atype, device=dev)` before each block, and states are
created on each layer's device. Look-alike: a CPU tensor inside a model that runs on the GPU, on
purpose; forward and the next RNN step run.
Stand-in: rwkv's `RWKV` reduced to two v4 layers (`att_seq`/`ffn_seq`, per-layer state, strategy
parsing for a `cuda:N fp16` string); slicing written with narrow/select (the simulator cannot slice a
fake cuda tensor).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import os
import time
from copy import deepcopy
import torch
from torch.nn import functional as F

class RWKV:
    """Stand-in for rwkv.model.RWKV (pip rwkv): weights and states placed per layer by `strategy`."""
    def __init__(self, model, strategy, n_layer=2, n_embd=16, vocab_size=600):
        self.args = type("Args", (), {"n_layer": n_layer, "n_embd": n_embd})()
        self.strategy = []
        for part in strategy.split("->"):
            dev, dt, *count = part.split()
            n = int(count[0][1:]) if count else n_layer + 1 - len(self.strategy)
            atype = torch.float16 if dt.startswith("fp16") else torch.float32
            self.strategy += [type("Strategy", (), {"device": dev, "atype": atype})()] * n
        g = torch.Generator().manual_seed(0)
        w = {"emb.weight": torch.randn(vocab_size, n_embd, generator=g)}
        for i in range(n_layer):
            dd = self.strategy[i]
            b = f"blocks.{i}."
            for name, shape in [("ln1.weight", (n_embd,)), ("ln1.bias", (n_embd,)), ("ln2.weight", (n_embd,)),
                                ("ln2.bias", (n_embd,)), ("att.time_mix_k", (n_embd,)), ("att.time_mix_v", (n_embd,)),
                                ("att.time_mix_r", (n_embd,)), ("att.time_decay", (n_embd,)), ("att.time_first", (n_embd,)),
                                ("att.key.weight", (n_embd, n_embd)), ("att.value.weight", (n_embd, n_embd)),
                                ("att.receptance.weight", (n_embd, n_embd)), ("att.output.weight", (n_embd, n_embd)),
                                ("ffn.time_mix_k", (n_embd,)), ("ffn.time_mix_r", (n_embd,)),
                                ("ffn.key.weight", (n_embd, 4 * n_embd)), ("ffn.receptance.weight", (n_embd, n_embd)),
                                ("ffn.value.weight", (4 * n_embd, n_embd))]:
                dtype = torch.float32 if "time_decay" in name or "time_first" in name else dd.atype
                w[b + name] = torch.randn(*shape, generator=g).to(device=dd.device, dtype=dtype)
        last = self.strategy[n_layer]
        w["ln_out.weight"] = torch.ones(n_embd).to(device=last.device, dtype=last.atype)
        w["ln_out.bias"] = torch.zeros(n_embd).to(device=last.device, dtype=last.atype)
        w["head.weight"] = torch.randn(n_embd, vocab_size, generator=g).to(device=last.device, dtype=last.atype)
        self.w = w

    def att_seq(self, x, sx, aa, bb, pp, ln_w, ln_b, k_mix, v_mix, r_mix, t_decay, t_first, kw, vw, rw, ow):
        xx = F.layer_norm(x, (x.shape[-1],), weight=ln_w, bias=ln_b)
        sx = torch.cat((sx.unsqueeze(0), xx.narrow(0, 0, xx.shape[0] - 1)))
        kx = xx * k_mix + sx * (1 - k_mix)
        vx = xx * v_mix + sx * (1 - v_mix)
        rx = xx * r_mix + sx * (1 - r_mix)
        r = torch.sigmoid(rx @ rw)
        k = (kx @ kw).float()
        v = (vx @ vw).float()
        T = x.shape[0]
        out = []
        for t in range(T):
            kk = k.select(0, t)
            vv = v.select(0, t)
            ww = t_first + kk
            p = torch.maximum(pp, ww)
            e1 = torch.exp(pp - p)
            e2 = torch.exp(ww - p)
            out.append(((e1 * aa + e2 * vv) / (e1 * bb + e2)).to(dtype=x.dtype))
            ww = t_decay + pp
            p = torch.maximum(ww, kk)
            e1 = torch.exp(ww - p)
            e2 = torch.exp(kk - p)
            aa = e1 * aa + e2 * vv
            bb = e1 * bb + e2
            pp = p
        out = (r * torch.stack(out)) @ ow
        return x + out, xx.select(0, T - 1), aa, bb, pp

    def ffn_seq(self, x, sx, ln_w, ln_b, k_mix, r_mix, kw, vw, rw):
        xx = F.layer_norm(x, (x.shape[-1],), weight=ln_w, bias=ln_b)
        sx = torch.cat((sx.unsqueeze(0), xx.narrow(0, 0, xx.shape[0] - 1)))
        kx = xx * k_mix + sx * (1 - k_mix)
        rx = xx * r_mix + sx * (1 - r_mix)
        r = torch.sigmoid(rx @ rw)
        vx = torch.square(torch.relu(kx @ kw))
        return x + r * (vx @ vw), xx.select(0, xx.shape[0] - 1)

    def forward(self, tokens, state):
        with torch.no_grad():
            w, args = self.w, self.args
            if state == None:
                state = [None] * args.n_layer * 5
                for i in range(args.n_layer):
                    dd = self.strategy[i]
                    dev, atype = dd.device, dd.atype
                    state[i*5+0] = torch.zeros(args.n_embd, dtype=atype, requires_grad=False, device=dev).contiguous()
                    state[i*5+1] = torch.zeros(args.n_embd, dtype=torch.float, requires_grad=False, device=dev).contiguous()
                    state[i*5+2] = torch.zeros(args.n_embd, dtype=torch.float, requires_grad=False, device=dev).contiguous()
                    state[i*5+3] = torch.zeros(args.n_embd, dtype=torch.float, requires_grad=False, device=dev).contiguous() - 1e30
                    state[i*5+4] = torch.zeros(args.n_embd, dtype=atype, requires_grad=False, device=dev).contiguous()
            x = F.embedding(torch.tensor(tokens), w["emb.weight"])
            for i in range(args.n_layer):
                bbb = f"blocks.{i}."
                dd = self.strategy[i]
                x = x.to(dtype=dd.atype, device=dd.device)
                x, state[i*5+0], state[i*5+1], state[i*5+2], state[i*5+3] = self.att_seq(
                    x, state[i*5+0], state[i*5+1], state[i*5+2], state[i*5+3],
                    w[bbb+"ln1.weight"], w[bbb+"ln1.bias"], w[bbb+"att.time_mix_k"], w[bbb+"att.time_mix_v"],
                    w[bbb+"att.time_mix_r"], w[bbb+"att.time_decay"], w[bbb+"att.time_first"],
                    w[bbb+"att.key.weight"], w[bbb+"att.value.weight"], w[bbb+"att.receptance.weight"],
                    w[bbb+"att.output.weight"])
                x, state[i*5+4] = self.ffn_seq(
                    x, state[i*5+4], w[bbb+"ln2.weight"], w[bbb+"ln2.bias"], w[bbb+"ffn.time_mix_k"],
                    w[bbb+"ffn.time_mix_r"], w[bbb+"ffn.key.weight"], w[bbb+"ffn.value.weight"],
                    w[bbb+"ffn.receptance.weight"])
            x = x.select(0, x.shape[0] - 1)
            last = self.strategy[args.n_layer]
            x = x.to(dtype=last.atype, device=last.device)
            x = F.layer_norm(x, (args.n_embd,), weight=w["ln_out.weight"], bias=w["ln_out.bias"])
            x = x @ w["head.weight"]
            return x.float(), state

os.environ["RWKV_JIT_ON"] = "1"
os.environ["RWKV_CUDA_ON"] = "0"
model = RWKV(model="RWKV-4-Pile-169M-20220807-8023", strategy="cuda:0 fp16")
emb_device = model.w["emb.weight"].device            # cpu: rwkv leaves the embedding table in RAM
head_device = model.w["head.weight"].device          # cuda:0
context = [510, 3158, 8516, 30, 187]                 # pipeline.encode(prompt)
'''
CELL = '''
out, state = model.forward(context, None)
out, state = model.forward([187], state)
print(out.shape, emb_device, head_device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
