"""GPTQ quantization of a model loaded with `device_map="cpu"`: optimum sends the calibration data to GPU 0 but leaves the embeddings on the CPU.

Source: https://github.com/huggingface/transformers/issues/28632
"Can't quantize gptq model on CPU runtime?": the user loaded the model with
`AutoModelForCausalLM.from_pretrained(model_path, device_map='cpu', quantization_config=GPTQConfig(bits=4, dataset="wikitext2", ...))`
and quantization failed with "Expected all tensors to be on the same device". In optimum's
`GPTQQuantizer.quantize_model` a model with an `hf_device_map` counts as dispatched, so the
modules before the first block and block 0 are not moved to the GPU, while the calibration batches
are put on GPU 0 whenever the model's device is the CPU (`data[k] = v.to(0)`). The maintainer's fix
(optimum PR #1662, "Fix gptq device_map = "cpu"") also moves the embeddings and block 0 to GPU 0 in
that case (quantization needs a GPU).
Stand-ins: a 2-block OPT-like model with `hf_device_map = {"": "cpu"}`, `GPTQQuantizer` with the
input-capture pre-hook and the per-block loop (the GPTQ solve is replaced by a forward), random
calibration ids; GPU 0 is written "cuda:0" (the simulated devices need a type).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def recurse_getattr(obj, attr):
    for a in attr.split("."):
        obj = getattr(obj, a)
    return obj

def get_device(obj):
    return next(obj.parameters()).device

class OPTDecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.self_attn_layer_norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, hidden_states, attention_mask=None):
        return (hidden_states + self.fc2(torch.relu(self.fc1(self.self_attn_layer_norm(hidden_states)))),)

class OPTForCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=2):
        super().__init__()
        self.model = nn.Module()
        self.model.decoder = nn.Module()
        self.model.decoder.embed_tokens = nn.Embedding(vocab, d)
        self.model.decoder.embed_positions = nn.Embedding(64, d)
        self.model.decoder.layers = nn.ModuleList([OPTDecoderLayer(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask=None):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        h = self.model.decoder.embed_tokens(input_ids) + self.model.decoder.embed_positions(pos)
        for layer in self.model.decoder.layers:
            h = layer(h, attention_mask=attention_mask)[0]
        return self.lm_head(h)

class GPTQQuantizer:
    def __init__(self, bits=4, dataset="wikitext2", group_size=32, cache_block_outputs=True):
        self.bits, self.dataset, self.group_size = bits, dataset, group_size
        self.cache_block_outputs = cache_block_outputs
        self.block_name_to_quantize = "model.decoder.layers"
        self.module_name_preceding_first_block = ["model.decoder.embed_tokens", "model.decoder.embed_positions"]

    @torch.no_grad()
    def quantize_model(self, model, tokenizer=None):
        has_device_map = False
        if hasattr(model, "hf_device_map"):
            devices = list(model.hf_device_map.values())
            has_device_map = True
            if "disk" in devices:
                raise ValueError("disk offload is not supported with GPTQ quantization")
        device = get_device(model)
        dataset = [{"input_ids": torch.randint(0, 100, (1, 16)), "attention_mask": torch.ones(1, 16, dtype=torch.long)}
                   for _ in range(2)]                                  # get_dataset(self.dataset, tokenizer, ...)
        blocks = recurse_getattr(model, self.block_name_to_quantize)
        if not has_device_map:
            # put modules from module_name_preceding_first_block on cuda
            for module_name in self.module_name_preceding_first_block:
                module = recurse_getattr(model, module_name)
                module.to("cuda:0")
            blocks[0] = blocks[0].to("cuda:0")

        layer_inputs, layer_input_kwargs = [], []

        def store_input_hook(_, input, *args):
            kwargs = args[0]
            layer_inputs.append(input)
            layer_input_kwargs.append({k: v for k, v in kwargs.items() if k != "hidden_states"})
            raise ValueError

        if self.cache_block_outputs:
            handle = blocks[0].register_forward_pre_hook(store_input_hook, with_kwargs=True)
            try:
                for data in dataset:
                    for k, v in data.items():
                        # put the data on gpu, we won't put them back to cpu
                        if not has_device_map or device.type == "cpu":
                            data[k] = v.to("cuda:0")
                        else:
                            data[k] = v.to(device)
                    try:
                        model(**data)
                    except ValueError:
                        pass
            finally:
                handle.remove()

        for i, block in enumerate(blocks):
            if not has_device_map or get_device(block) == torch.device("cpu"):
                block = block.to("cuda:0")
            layer_inputs = [(block(*inp, **kw)[0],) for inp, kw in zip(layer_inputs, layer_input_kwargs)]
        return model

class AutoModelForCausalLM:
    @staticmethod
    def from_pretrained(path, trust_remote_code=True, device_map=None, use_safetensors=True):
        model = OPTForCausalLM()
        if device_map is not None:
            model.hf_device_map = {"": device_map}
        return model

model_path = "/data1/ls/hf_models/multi_lan-mango-dev/"
model = AutoModelForCausalLM.from_pretrained(model_path, trust_remote_code=True, device_map="cpu", use_safetensors=True)
quantizer = GPTQQuantizer(bits=4, dataset="wikitext2", group_size=32)
tokenizer = None
'''
CELL = '''
quantized_model = quantizer.quantize_model(model, tokenizer)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        if not has_device_map:\n            # put modules",
                  "        if not has_device_map or device.type == \"cpu\":\n            # put modules")
CLEAN = False
