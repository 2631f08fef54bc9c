"""transformers Mamba slow path under fp16 mixed precision: `MambaCache.update_conv_state` writes a Half conv state into the float32 cache.

Source: https://github.com/huggingface/transformers/issues/32690
Training `MambaForCausalLM` (`use_mambapy=False`, no CUDA kernels, so the slow path) with PyTorch
Lightning at float16 precision failed in `cache_utils.py`, `MambaCache.update_conv_state`, at
`conv_state[:, :, cache_position] = new_conv_state.to(conv_state.device)` with "Index put requires
the source and destination dtypes match, got Float for the destination and Half for the source".
The cache is allocated with the embeddings' dtype (float32) while autocast makes `in_proj` return
Half. The reporter's fix (merged as PR #32691) casts the dtype too:
`new_conv_state.to(device=conv_state.device, dtype=conv_state.dtype)`.
Stand-in: transformers 4.44's MambaCache, MambaMixer.slow_forward, MambaModel / MambaForCausalLM
(reduced); Lightning's 16-mixed precision is the autocast context it opens. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import math
import torch
from torch import nn

class MambaConfig:
    def __init__(self, vocab_size=100, hidden_size=16, state_size=8, num_hidden_layers=2,
                 expand=2, conv_kernel=4, use_cache=True, use_mambapy=False):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.state_size = state_size
        self.num_hidden_layers = num_hidden_layers
        self.expand = expand
        self.conv_kernel = conv_kernel
        self.intermediate_size = int(expand * hidden_size)
        self.time_step_rank = math.ceil(hidden_size / 16)
        self.use_cache = use_cache
        self.use_mambapy = use_mambapy

class MambaCache:
    def __init__(self, config, batch_size, dtype=torch.float16, device=None):
        self.dtype = dtype
        self.max_batch_size = batch_size
        self.intermediate_size = config.intermediate_size
        self.ssm_state_size = config.state_size
        self.conv_kernel_size = config.conv_kernel
        self.conv_states = torch.zeros(config.num_hidden_layers, batch_size, self.intermediate_size,
                                       self.conv_kernel_size, device=device, dtype=dtype)
        self.ssm_states = torch.zeros(config.num_hidden_layers, batch_size, self.intermediate_size,
                                      self.ssm_state_size, device=device, dtype=dtype)

    def update_conv_state(self, layer_idx, new_conv_state, cache_position):
        conv_state = self.conv_states[layer_idx]
        cache_position = cache_position.clamp(0, self.conv_kernel_size - 1)
        conv_state = conv_state.roll(shifts=-1, dims=-1)
        conv_state[:, :, cache_position] = new_conv_state.to(conv_state.device)
        self.conv_states[layer_idx].zero_()
        self.conv_states[layer_idx] += conv_state
        return self.conv_states[layer_idx]

    def update_ssm_state(self, layer_idx, new_ssm_state):
        self.ssm_states[layer_idx] = new_ssm_state.to(self.ssm_states.device)
        return self.ssm_states[layer_idx]

class MambaMixer(nn.Module):
    def __init__(self, config, layer_idx):
        super().__init__()
        self.hidden_size = config.hidden_size
        self.ssm_state_size = config.state_size
        self.conv_kernel_size = config.conv_kernel
        self.intermediate_size = config.intermediate_size
        self.time_step_rank = config.time_step_rank
        self.layer_idx = layer_idx
        self.conv1d = nn.Conv1d(self.intermediate_size, self.intermediate_size, bias=True,
                                kernel_size=config.conv_kernel, groups=self.intermediate_size,
                                padding=config.conv_kernel - 1)
        self.act = nn.SiLU()
        self.in_proj = nn.Linear(self.hidden_size, self.intermediate_size * 2, bias=False)
        self.x_proj = nn.Linear(self.intermediate_size, self.time_step_rank + self.ssm_state_size * 2, bias=False)
        self.dt_proj = nn.Linear(self.time_step_rank, self.intermediate_size, bias=True)
        A = torch.arange(1, self.ssm_state_size + 1, dtype=torch.float32)[None, :]
        A = A.expand(self.intermediate_size, -1).contiguous()
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(self.intermediate_size))
        self.out_proj = nn.Linear(self.intermediate_size, self.hidden_size, bias=False)

    def slow_forward(self, input_states, cache_params=None, cache_position=None):
        batch_size, seq_len, _ = input_states.shape
        dtype = input_states.dtype
        projected_states = self.in_proj(input_states).transpose(1, 2)
        hidden_states, gate = projected_states.chunk(2, dim=1)
        if cache_params is not None:
            ssm_state = cache_params.ssm_states[self.layer_idx].clone()
            ssm_state = ssm_state.to(hidden_states.device)
            if cache_position.shape[0] == self.conv_kernel_size:
                conv_state = nn.functional.pad(hidden_states, (self.conv_kernel_size - hidden_states.shape[-1], 0))
                cache_params.update_conv_state(self.layer_idx, conv_state, cache_position)
                hidden_states = self.act(self.conv1d(hidden_states)[..., :seq_len])
            else:
                conv_state = cache_params.update_conv_state(self.layer_idx, hidden_states, cache_position)
                hidden_states = torch.sum(conv_state * self.conv1d.weight[:, 0, :], dim=-1)
                hidden_states += self.conv1d.bias
                hidden_states = self.act(hidden_states).to(dtype).unsqueeze(-1)
        else:
            ssm_state = torch.zeros((batch_size, self.intermediate_size, self.ssm_state_size),
                                    device=hidden_states.device, dtype=dtype)
            hidden_states = self.act(self.conv1d(hidden_states)[..., :seq_len])
        ssm_parameters = self.x_proj(hidden_states.transpose(1, 2))
        time_step, B, C = torch.split(ssm_parameters, [self.time_step_rank, self.ssm_state_size, self.ssm_state_size], dim=-1)
        discrete_time_step = self.dt_proj(time_step)
        discrete_time_step = nn.functional.softplus(discrete_time_step).transpose(1, 2)
        A = -torch.exp(self.A_log.float())
        discrete_A = torch.exp(A[None, :, None, :] * discrete_time_step[:, :, :, None])
        discrete_B = discrete_time_step[:, :, :, None] * B[:, None, :, :].float()
        deltaB_u = discrete_B * hidden_states[:, :, :, None].float()
        scan_outputs = []
        for i in range(seq_len):
            ssm_state = discrete_A[:, :, i, :] * ssm_state + deltaB_u[:, :, i, :]
            scan_output = torch.matmul(ssm_state.to(dtype), C[:, i, :].unsqueeze(-1))
            scan_outputs.append(scan_output[:, :, 0])
        scan_output = torch.stack(scan_outputs, dim=-1)
        scan_output = scan_output + (hidden_states * self.D[None, :, None])
        scan_output = (scan_output * self.act(gate))
        if cache_params is not None:
            cache_params.update_ssm_state(self.layer_idx, ssm_state)
        return self.out_proj(scan_output.transpose(1, 2))

    def forward(self, hidden_states, cache_params=None, cache_position=None):
        return self.slow_forward(hidden_states, cache_params, cache_position)

class MambaRMSNorm(nn.Module):
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

class MambaBlock(nn.Module):
    def __init__(self, config, layer_idx):
        super().__init__()
        self.norm = MambaRMSNorm(config.hidden_size)
        self.mixer = MambaMixer(config, layer_idx=layer_idx)

    def forward(self, hidden_states, cache_params=None, cache_position=None):
        residual = hidden_states
        hidden_states = self.norm(hidden_states.to(dtype=self.norm.weight.dtype))
        hidden_states = self.mixer(hidden_states, cache_params=cache_params, cache_position=cache_position)
        return residual + hidden_states

class MambaModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList([MambaBlock(config, layer_idx=i) for i in range(config.num_hidden_layers)])
        self.norm_f = MambaRMSNorm(config.hidden_size)

    def forward(self, input_ids, cache_params=None, use_cache=None, cache_position=None):
        inputs_embeds = self.embeddings(input_ids)
        use_cache = use_cache if use_cache is not None else self.config.use_cache
        if use_cache:
            if cache_params is None:
                cache_params = MambaCache(self.config, inputs_embeds.size(0),
                                          device=inputs_embeds.device, dtype=inputs_embeds.dtype)
                cache_position = torch.arange(0, self.config.conv_kernel, device=inputs_embeds.device)
        else:
            cache_params = None
        hidden_states = inputs_embeds
        for mixer_block in self.layers:
            hidden_states = mixer_block(hidden_states, cache_params=cache_params, cache_position=cache_position)
        return self.norm_f(hidden_states), cache_params

class MambaForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.backbone = MambaModel(config)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    def forward(self, input_ids, labels=None, cache_params=None, use_cache=None):
        hidden_states, cache_params = self.backbone(input_ids, cache_params=cache_params, use_cache=use_cache)
        logits = self.lm_head(hidden_states.to(self.lm_head.weight.dtype)).float()
        loss = None
        if labels is not None:
            shift_logits = logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous()
            loss = nn.functional.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
        return loss, logits

torch.manual_seed(0)
config = MambaConfig(use_mambapy=False)
model = MambaForCausalLM(config)
model.train()
input_ids = torch.randint(0, config.vocab_size, (2, 12))
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.float16):   # Lightning Trainer(precision=16)
    loss, logits = model(input_ids, labels=input_ids)
print(loss)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("conv_state[:, :, cache_position] = new_conv_state.to(conv_state.device)",
                  "conv_state[:, :, cache_position] = new_conv_state.to(device=conv_state.device, dtype=conv_state.dtype)")
CLEAN = False
