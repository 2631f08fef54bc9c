"""Jamba with `device_map="auto"` on two GPUs and `use_mamba_kernels=False`: the cached `ssm_states` live on cuda:0 while a Mamba layer runs on cuda:1.

Source: https://github.com/huggingface/transformers/issues/30367
`model.generate(input_ids=inputs.to(model.device), ...)` on `ai21labs/Jamba-tiny-random` loaded with
`device_map="auto"` over two GPUs failed (kernels disabled) with "Expected all tensors to be on the
same device, but found at least two devices, cuda:1 and cuda:0!". The fix (PR #30418, which closes
the issue): `HybridMambaAttentionDynamicCache` is built on the device of the inputs, so for a Mamba
layer dispatched to another GPU `slow_forward` must move the cached state,
`ssm_state = ssm_state.to(hidden_states.device)`.
Stand-ins: transformers 4.40's JambaMambaMixer.slow_forward, HybridMambaAttentionDynamicCache and a
two-Mamba-layer JambaForCausalLM with a greedy `generate`; accelerate's dispatch (hooks that move a
module's tensor inputs to its device, outputs back to the caller's device) for the device map.
Indexing is written with select/narrow/view (the simulator cannot index a fake cuda tensor).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class JambaConfig:
    def __init__(self, vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                 mamba_d_state=8, mamba_d_conv=4, mamba_expand=2, mamba_dt_rank=4,
                 use_mamba_kernels=True, rms_norm_eps=1e-6):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.intermediate_size = intermediate_size
        self.num_hidden_layers = num_hidden_layers
        self.mamba_d_state = mamba_d_state
        self.mamba_d_conv = mamba_d_conv
        self.mamba_expand = mamba_expand
        self.mamba_dt_rank = mamba_dt_rank
        self.use_mamba_kernels = use_mamba_kernels
        self.rms_norm_eps = rms_norm_eps
        self.layers_block_type = ["mamba"] * num_hidden_layers

class HybridMambaAttentionDynamicCache:
    def __init__(self, config, batch_size, dtype=torch.float16, device=None):
        self.dtype = dtype
        self.layers_block_type = config.layers_block_type
        self.has_previous_state = False
        intermediate_size = config.mamba_expand * config.hidden_size
        ssm_state_size = config.mamba_d_state
        conv_kernel_size = config.mamba_d_conv
        self.conv_states = []
        self.ssm_states = []
        for i in range(config.num_hidden_layers):
            if self.layers_block_type[i] == "mamba":
                self.conv_states += [torch.zeros(batch_size, intermediate_size, conv_kernel_size, device=device, dtype=dtype)]
                self.ssm_states += [torch.zeros(batch_size, intermediate_size, ssm_state_size, device=device, dtype=dtype)]

class JambaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)

class JambaMambaMixer(nn.Module):
    def __init__(self, config, layer_idx):
        super().__init__()
        self.layer_idx = layer_idx
        self.ssm_state_size = config.mamba_d_state
        self.conv_kernel_size = config.mamba_d_conv
        self.intermediate_size = config.mamba_expand * config.hidden_size
        self.time_step_rank = config.mamba_dt_rank
        self.use_conv_bias = True
        self.conv1d = nn.Conv1d(self.intermediate_size, self.intermediate_size, bias=True,
                                kernel_size=self.conv_kernel_size, groups=self.intermediate_size,
                                padding=self.conv_kernel_size - 1)
        self.act = nn.SiLU()
        self.use_fast_kernels = config.use_mamba_kernels
        self.in_proj = nn.Linear(config.hidden_size, self.intermediate_size * 2, bias=False)
        self.x_proj = nn.Linear(self.intermediate_size, self.time_step_rank + self.ssm_state_size * 2, bias=False)
        self.dt_proj = nn.Linear(self.time_step_rank, self.intermediate_size, bias=True)
        A = torch.arange(1, self.ssm_state_size + 1, dtype=torch.float32).unsqueeze(0)
        A = A.expand(self.intermediate_size, -1).contiguous()
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(self.intermediate_size))
        self.out_proj = nn.Linear(self.intermediate_size, config.hidden_size, bias=False)
        self.dt_layernorm = JambaRMSNorm(self.time_step_rank, eps=config.rms_norm_eps)
        self.b_layernorm = JambaRMSNorm(self.ssm_state_size, eps=config.rms_norm_eps)
        self.c_layernorm = JambaRMSNorm(self.ssm_state_size, eps=config.rms_norm_eps)

    def slow_forward(self, input_states, cache_params=None, attention_mask=None):
        batch_size, seq_len, _ = input_states.shape
        dtype = input_states.dtype
        projected_states = self.in_proj(input_states).transpose(1, 2)
        hidden_states, gate = projected_states.chunk(2, dim=1)
        use_cache = isinstance(cache_params, HybridMambaAttentionDynamicCache)
        if use_cache and cache_params.ssm_states[self.layer_idx].shape[0] == batch_size:
            if self.training:
                ssm_state = cache_params.ssm_states[self.layer_idx].clone()
            else:
                ssm_state = cache_params.ssm_states[self.layer_idx]
            if cache_params.has_previous_state and seq_len == 1 and \\
                    cache_params.conv_states[self.layer_idx].shape[0] == batch_size:
                conv_state = cache_params.conv_states[self.layer_idx]
                conv_state = torch.cat([conv_state.narrow(-1, 1, self.conv_kernel_size - 1), hidden_states], dim=-1)
                cache_params.conv_states[self.layer_idx] = conv_state
                hidden_states = torch.sum(conv_state * self.conv1d.weight.select(1, 0), dim=-1)
                if self.use_conv_bias:
                    hidden_states += self.conv1d.bias
                hidden_states = self.act(hidden_states).to(dtype).unsqueeze(-1)
            else:
                conv_state = nn.functional.pad(hidden_states, (self.conv_kernel_size - hidden_states.shape[-1], 0))
                cache_params.conv_states[self.layer_idx] = conv_state
                hidden_states = self.act(self.conv1d(hidden_states).narrow(-1, 0, seq_len))
        else:
            ssm_state = torch.zeros((batch_size, self.intermediate_size, self.ssm_state_size),
                                    device=hidden_states.device, dtype=dtype)
            hidden_states = self.act(self.conv1d(hidden_states).narrow(-1, 0, seq_len))
        ssm_parameters = self.x_proj(hidden_states.transpose(1, 2))
        time_step, B, C = torch.split(ssm_parameters, [self.time_step_rank, self.ssm_state_size, self.ssm_state_size], dim=-1)
        time_step = self.dt_layernorm(time_step)
        B = self.b_layernorm(B)
        C = self.c_layernorm(C)
        discrete_time_step = self.dt_proj(time_step)
        discrete_time_step = nn.functional.softplus(discrete_time_step).transpose(1, 2)
        A = -torch.exp(self.A_log.float())
        discrete_A = torch.exp(A.unsqueeze(0).unsqueeze(2) * discrete_time_step.unsqueeze(-1))
        discrete_B = discrete_time_step.unsqueeze(-1) * B.unsqueeze(1).float()
        deltaB_u = discrete_B * hidden_states.unsqueeze(-1).float()
        scan_outputs = []
        for i in range(seq_len):
            ssm_state = discrete_A.select(2, i) * ssm_state + deltaB_u.select(2, i)
            scan_output = torch.matmul(ssm_state.to(dtype), C.select(1, i).unsqueeze(-1))
            scan_outputs.append(scan_output.select(2, 0))
        scan_output = torch.stack(scan_outputs, dim=-1)
        scan_output = scan_output + (hidden_states * self.D.view(1, -1, 1))
        scan_output = (scan_output * self.act(gate))
        if use_cache:
            cache_params.ssm_states[self.layer_idx] = ssm_state
        return self.out_proj(scan_output.transpose(1, 2))

    def forward(self, hidden_states, cache_params=None, attention_mask=None):
        if self.use_fast_kernels:
            raise ValueError("Fast Mamba kernels are not available. Make sure to they are installed and that the mamba module is on a CUDA device")
        return self.slow_forward(hidden_states, cache_params, attention_mask)

class JambaMLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.gate_proj = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.up_proj = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.down_proj = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)
        self.act_fn = nn.SiLU()

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))

class JambaMambaDecoderLayer(nn.Module):
    def __init__(self, config, layer_idx):
        super().__init__()
        self.mamba = JambaMambaMixer(config=config, layer_idx=layer_idx)
        self.feed_forward = JambaMLP(config)
        self.input_layernorm = JambaRMSNorm(config.hidden_size, eps=config.rms_norm_eps)
        self.pre_ff_layernorm = JambaRMSNorm(config.hidden_size, eps=config.rms_norm_eps)

    def forward(self, hidden_states, past_key_value=None):
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        hidden_states = self.mamba(hidden_states=hidden_states, cache_params=past_key_value)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.pre_ff_layernorm(hidden_states)
        return residual + self.feed_forward(hidden_states)

class JambaModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList([JambaMambaDecoderLayer(config, i) for i in range(config.num_hidden_layers)])
        self.final_layernorm = JambaRMSNorm(config.hidden_size, eps=config.rms_norm_eps)

    def forward(self, input_ids, past_key_values=None):
        hidden_states = self.embed_tokens(input_ids)
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states, past_key_value=past_key_values)
        if past_key_values is not None and not past_key_values.has_previous_state:
            past_key_values.has_previous_state = True
        return self.final_layernorm(hidden_states)

class JambaForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.model = JambaModel(config)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def forward(self, input_ids, past_key_values=None):
        return self.lm_head(self.model(input_ids, past_key_values=past_key_values))

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=20, do_sample=False):
        past_key_values = HybridMambaAttentionDynamicCache(self.config, input_ids.shape[0], self.dtype, device=self.device)
        model_inputs = input_ids
        for _ in range(max_new_tokens):
            logits = self(model_inputs, past_key_values=past_key_values)
            next_tokens = logits.select(1, logits.shape[1] - 1).argmax(-1)
            input_ids = torch.cat([input_ids, next_tokens.unsqueeze(-1)], dim=-1)
            model_inputs = next_tokens.unsqueeze(-1)
        return input_ids

def _send_to_device(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_send_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: _send_to_device(v, device) for k, v in obj.items()}
    return obj

def dispatch_model(model, device_map):
    """accelerate stand-in: place each listed module, move its tensor inputs to its device."""
    for name, device in device_map.items():
        module = model.get_submodule(name)
        module.to(device)
        def pre_hook(mod, args, kwargs, device=device):
            return _send_to_device(args, device), _send_to_device(kwargs, device)
        module.register_forward_pre_hook(pre_hook, with_kwargs=True)
    main_device = device_map[next(iter(device_map))]
    def io_same_device(mod, args, kwargs, output):
        return output.to(args[0].device) if args else output
    model.register_forward_hook(io_same_device, with_kwargs=True)
    model.hf_device_map = dict(device_map)
    return model

config = JambaConfig()
config.use_mamba_kernels = False
model = JambaForCausalLM(config).eval()
model = dispatch_model(model, {"model.embed_tokens": "cuda:0", "model.layers.0": "cuda:0",
                               "model.layers.1": "cuda:1", "model.final_layernorm": "cuda:1",
                               "lm_head": "cuda:1"})
inputs = torch.tensor([[3, 17, 42, 8, 25, 11]])          # tokenizer.encode(prompt, return_tensors="pt")
'''
CELL = '''
outputs = model.generate(input_ids=inputs.to(model.device), max_new_tokens=4, do_sample=False)
print(outputs.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            else:
                ssm_state = cache_params.ssm_states[self.layer_idx]
""", """            else:
                ssm_state = cache_params.ssm_states[self.layer_idx]
            ssm_state = ssm_state.to(hidden_states.device)
""")
CLEAN = False
