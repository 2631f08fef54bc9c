"""optimum GPTQ quantization of a model placed on `cuda:2`: the quantizer moves every calibration batch to GPU 0.

Source: https://github.com/huggingface/optimum/issues/1669
"GPTQQuantizer hard coded the device to 0": after `torch.cuda.set_device(2)` the user loaded
facebook/opt-125m with a `GPTQConfig` and `device_map={'': torch.cuda.current_device()}`; the
quantization failed with "Expected all tensors to be on the same device, but found at least two
devices". The reporter traced it to `GPTQQuantizer.quantize_model`: while capturing the inputs of the
first block it does `data[k] = v.to(0)` for every calibration tensor, whatever device the model is on.
Later optimum versions move the data to the first block's device (`cur_layer_device`).
Stand-ins: optimum's `GPTQQuantizer.quantize_model` input-capture step (the block pass after it kept
minimal, no GPTQ math; `.to(0)` written `.to("cuda:0")`) and an OPT-style decoder; the model already has its `hf_device_map`, as
`from_pretrained(device_map=...)` leaves it.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class OPTDecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.self_attn_layer_norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, hidden_states, attention_mask=None):
        h = self.self_attn_layer_norm(hidden_states)
        h = h * attention_mask[..., None].to(h.dtype)
        return (hidden_states + self.fc2(torch.relu(self.fc1(h))),)

class OPTDecoder(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=2, max_pos=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.embed_positions = nn.Embedding(max_pos, d)
        self.layers = nn.ModuleList([OPTDecoderLayer(d) for _ in range(n_layers)])

    def forward(self, input_ids, attention_mask):
        positions = torch.cumsum(attention_mask, dim=1) - 1
        hidden_states = self.embed_tokens(input_ids) + self.embed_positions(positions)
        for layer in self.layers:
            hidden_states = layer(hidden_states, attention_mask=attention_mask)[0]
        return hidden_states

class OPTModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.decoder = OPTDecoder()

class OPTForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = OPTModel()

    def forward(self, input_ids, attention_mask):
        return self.model.decoder(input_ids, attention_mask)

class GPTQQuantizer:
    def __init__(self, bits=4, group_size=128, block_name_to_quantize="model.decoder.layers"):
        self.bits, self.group_size = bits, group_size
        self.block_name_to_quantize = block_name_to_quantize

    def quantize_model(self, model, dataset):
        blocks = model.get_submodule(self.block_name_to_quantize)
        has_device_map = hasattr(model, "hf_device_map")
        layer_inputs, layer_input_kwargs = [], []

        def store_input_hook(_, input, *args):
            kwargs = args[0]
            layer_inputs.append(input)
            layer_input_kwargs.append({k: v for k, v in kwargs.items() if k != "hidden_states"})
            raise ValueError

        handle = blocks[0].register_forward_pre_hook(store_input_hook, with_kwargs=True)
        for data in dataset:
            for k, v in data.items():
                # put the data on gpu, we won't put them back to cpu
                data[k] = v.to("cuda:0")   # optimum: v.to(0)
            try:
                model(**data)
            except ValueError:
                pass
        handle.remove()

        for block in blocks:
            outs = [block(*inp, **kw)[0] for inp, kw in zip(layer_inputs, layer_input_kwargs)]
            layer_inputs = [(o,) for o in outs]
        return model

device = torch.device("cuda:2")
model = OPTForCausalLM().to(device).eval()
model.hf_device_map = {"": 2}
dataset = [{"input_ids": torch.randint(0, 100, (1, 16)), "attention_mask": torch.ones(1, 16, dtype=torch.long)}
           for _ in range(4)]
quantizer = GPTQQuantizer(bits=4, group_size=128)
'''
CELL = '''
with torch.no_grad():
    quantized_model = quantizer.quantize_model(model, dataset)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["quantizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('data[k] = v.to("cuda:0")', "data[k] = v.to(next(blocks[0].parameters()).device)")
CLEAN = False
