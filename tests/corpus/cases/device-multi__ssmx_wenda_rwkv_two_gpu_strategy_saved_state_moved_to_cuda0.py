"""wenda + RWKV split over two GPUs (`cuda:0 fp16 *14 -> cuda:1 fp16`): the saved chat state is moved back to cuda:0 for every layer.

Source: https://github.com/wenda-LLM/wenda/issues/370
With an RWKV-4-Raven model and a multi-GPU strategy such as 'cuda:0 fp16 *14 -> cuda:1 fp16', the
second chat turn failed with "Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cuda:1! (when checking argument for argument tensors in method
wrapper_CUDA_cat)"; only a single card worked. The maintainer: saving/restoring RWKV states only
supported one card. wenda's `State` copies each session's state to the CPU and `get()` sends every
tensor to the hard-coded `device = 'cuda:0'`, although `RWKV.forward` keeps each layer's state on that
layer's device. The fix makes the state copy device a setting that defaults to 'cpu', i.e. the
states stay where the model made them (in this version's `device != torch.device("cpu")` tests).
Stand-ins: rwkv's `RWKV` (v4 `att_seq`/`ffn_seq`, strategy split, per-layer state) reduced to two
layers; wenda's `State` and the chat turn that restores a matched state. Slicing is written with
narrow/select (the simulator cannot slice a fake cuda tensor).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import time
from copy import deepcopy
import torch
from torch.nn import functional as F

class RWKV:
    """Stand-in for rwkv.model.RWKV (pip rwkv): weights and states placed per layer by `strategy`."""
    def __init__(self, model, strategy, n_layer=2, n_embd=16, vocab_size=50):
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

# wenda llms/llm_rwkv.py
states = {}

class State(object):
    def __init__(self, state):
        self.state = [tensor.cpu() for tensor in state] if device != torch.device(
            "cpu") else deepcopy(state)
        self.touch()

    def get(self):
        self.touch()
        return [tensor.to(device) for tensor in self.state] if device != torch.device("cpu") else self.state

    def touch(self):
        self.time = time.time()

device = 'cuda:0'
model = RWKV(model='RWKV-4-Raven-7B-v12-Eng49%-Chn49%-Jpn1%-Other1%-20230530-ctx8192.pth',
             strategy='cuda:0 fp16 *1 -> cuda:1 fp16')

# first chat turn: run the prompt, keep the session state under its history string
history = "Bob: hi\\n\\nAlice: Hi. I am your assistant.\\n\\n"
out, state = model.forward([12, 7, 33, 2, 41, 5, 19, 8], None)
states[history] = State(state)
tokens = [12, 7, 27, 30, 2, 15]          # pipeline.encode(f"{user}{interface} {prompt}\\n\\n{answer}{interface}")
'''
CELL = '''
state = states[history].get()
out, state = model.forward(tokens, state)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["device"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("device = 'cuda:0'", "device = torch.device('cpu')   # state_source_device or 'cpu'")
CLEAN = False
