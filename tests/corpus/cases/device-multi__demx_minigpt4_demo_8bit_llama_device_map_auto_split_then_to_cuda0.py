"""MiniGPT-4 gradio demo: the 8-bit LLaMA is dispatched with `device_map="auto"` over two GPUs, then `demo.py` moves the whole model to cuda:0.

Source: https://github.com/Vision-CAIR/MiniGPT-4/issues/44
Users with several GPUs ran `python demo.py --cfg-path eval_configs/minigpt4_eval.yaml` (low_resource: 8-bit
LLaMA) and got "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cuda:1!" when chatting, in `modeling_llama.py` line 74 (`return self.weight * hidden_states`, LlamaRMSNorm).
The maintainer: "the issue comes from the 8-bit loading ... change the device_map from 'auto' to
{'': THE_CUDA_ID_YOU_WANT}" (commit 322ed18 adds `device_8bit` and `device_map={'': device_8bit}`).
`device_map="auto"` spreads the decoder layers over cuda:0 and cuda:1 and installs accelerate hooks that
send each layer's inputs to its execution device; `demo.py` then runs `model_cls.from_config(...).to('cuda:0')`,
which moves the weights of the cuda:1 layers to cuda:0 while their hooks still move the hidden states to cuda:1.
Stand-ins: LlamaForCausalLM.from_pretrained reduced to a tiny LLaMA whose `device_map="auto"` places half of
the layers on each GPU with an input-aligning pre-hook (accelerate's AlignDevicesHook, reduced); MiniGPT4 and
Chat reduced to the projection of the image features and the first decoding step of `Chat.answer`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps
    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.input_layernorm = LlamaRMSNorm(hidden_size)
        self.mlp = nn.Linear(hidden_size, hidden_size)
    def forward(self, hidden_states):
        return hidden_states + self.mlp(self.input_layernorm(hidden_states))

class LlamaModel(nn.Module):
    def __init__(self, vocab_size, hidden_size, num_layers):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.layers = nn.ModuleList([LlamaDecoderLayer(hidden_size) for _ in range(num_layers)])
        self.norm = LlamaRMSNorm(hidden_size)
    def forward(self, inputs_embeds):
        h = inputs_embeds
        for layer in self.layers:
            h = layer(h)
        return self.norm(h)

def _align_devices_hook(execution_device):
    """accelerate.hooks.AlignDevicesHook.pre_forward, reduced: inputs go to the layer's execution device."""
    def pre_forward(module, args):
        return tuple(a.to(execution_device) if isinstance(a, torch.Tensor) else a for a in args)
    return pre_forward

class LlamaConfig:
    def __init__(self, vocab_size=32, hidden_size=16, num_hidden_layers=4):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers

class LlamaForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.model = LlamaModel(config.vocab_size, config.hidden_size, config.num_hidden_layers)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
    def forward(self, inputs_embeds):
        return self.lm_head(self.model(inputs_embeds))
    @classmethod
    def from_pretrained(cls, path, torch_dtype=None, load_in_8bit=False, device_map=None):
        model = cls(LlamaConfig())
        if device_map == "auto":
            # accelerate's infer_auto_device_map: balance the layers over the visible GPUs
            n = len(model.model.layers)
            model.hf_device_map = {"model.embed_tokens": 0}
            for i in range(n):
                model.hf_device_map[f"model.layers.{i}"] = 0 if i < n // 2 else 1
            model.hf_device_map.update({"model.norm": 1, "lm_head": 1})
        elif isinstance(device_map, dict):
            model.hf_device_map = dict(device_map)
        else:
            model.hf_device_map = {}
        for name, dev in model.hf_device_map.items():
            sub = model.get_submodule(name) if name else model
            sub.to(f"cuda:{dev}")
            sub.register_forward_pre_hook(_align_devices_hook(torch.device(f"cuda:{dev}")))
        return model

class MiniGPT4(nn.Module):
    """minigpt4/models/mini_gpt4.py (visual encoder and Q-Former reduced to a projection)."""
    def __init__(self, llama_model="vicuna-7b", low_resource=True, q_hidden_size=12):
        super().__init__()
        self.low_resource = low_resource
        if self.low_resource:
            self.llama_model = LlamaForCausalLM.from_pretrained(
                llama_model,
                torch_dtype=torch.float16,
                load_in_8bit=True,
                device_map="auto"
            )
        else:
            self.llama_model = LlamaForCausalLM.from_pretrained(llama_model, torch_dtype=torch.float16)
        self.llama_proj = nn.Linear(q_hidden_size, self.llama_model.config.hidden_size)

    def encode_img(self, image):
        return self.llama_proj(image)

class Chat:
    def __init__(self, model, vis_processor, device='cuda:0'):
        self.device = device
        self.model = model
        self.vis_processor = vis_processor

    def upload_img(self, image, conv, img_list):
        image = self.vis_processor(image).unsqueeze(0).to(self.device)
        image_emb = self.model.encode_img(image)
        img_list.append(image_emb)
        return "Received."

    def get_context_emb(self, conv, img_list):
        seg_tokens = torch.tensor([[1, 5, 7]], device=self.device)
        seg_embs = self.model.llama_model.model.embed_tokens(seg_tokens)
        return torch.cat([seg_embs, img_list[0]], dim=1)

    def answer(self, conv, img_list, max_new_tokens=300):
        embs = self.get_context_emb(conv, img_list)
        logits = self.model.llama_model(embs)      # first step of llama_model.generate(inputs_embeds=embs)
        return logits[:, -1].argmax(-1)

# demo.py
model = MiniGPT4(low_resource=True).to('cuda:0')
vis_processor = lambda raw_image: raw_image          # Blip2ImageEvalProcessor, reduced
chat = Chat(model, vis_processor)

# gradio: upload_img
chat_state = []
img_list = []
gr_img = torch.randn(32, 12)                         # the uploaded image, as Q-Former query outputs
chat.upload_img(gr_img, chat_state, img_list)
'''
CELL = '''
llm_message = chat.answer(conv=chat_state, img_list=img_list, max_new_tokens=300)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.llama_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '                load_in_8bit=True,\n                device_map="auto"\n',
    "                load_in_8bit=True,\n                device_map={'': 0}\n",
)
CLEAN = False
