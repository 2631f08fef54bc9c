"""Look-alike: MiniGPT-4's gradio demo after the `--gpu_id` fix, low-resource mode: the 8-bit LLaMA is pinned with `device_map={'': device_8bit}`, the ViT is moved to the CPU in float32 on every image, and its output is sent back to the GPU.

Source: https://github.com/Vision-CAIR/MiniGPT-4/blob/322ed189e6ca40562710002d1130975872a0bff9/minigpt4/models/mini_gpt4.py
With `python demo.py --cfg-path eval_configs/minigpt4_eval.yaml --gpu_id 1`: `model_config.device_8bit =
args.gpu_id`, LLaMA loaded with `load_in_8bit=True, device_map={'': device_8bit}`,
`model_cls.from_config(model_config).to('cuda:{}'.format(args.gpu_id))`, `Chat(model, vis_processor,
device='cuda:1')`. `encode_img` keeps `device = image.device`, calls `vit_to_cpu()` (ln_vision and the fp16
visual encoder `.to("cpu").float()`), runs the ViT on `image.to("cpu")` and returns
`self.ln_vision(self.visual_encoder(image)).to(device)` to the Q-Former on cuda:1. A CPU float32 ViT next to a
GPU model, on purpose. Stand-ins: EVA-ViT, Q-Former and LLaMA reduced to small layers (LLaMA dispatched as
`device_map={'': 1}` does: weights and an input-aligning hook on cuda:1); `maybe_autocast` is a nullcontext
(the fake-cuda simulation has no CUDA autocast); `generate` reduced to its first step.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import contextlib
import torch
import torch.nn as nn

def _align_devices_hook(execution_device):
    def pre_forward(module, args):
        return tuple(a.to(execution_device) if isinstance(a, torch.Tensor) else a for a in args)
    return pre_forward

class LlamaModel(nn.Module):
    def __init__(self, vocab_size=32, hidden_size=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.layers = nn.ModuleList([nn.Linear(hidden_size, hidden_size) for _ in range(2)])
    def forward(self, inputs_embeds):
        h = inputs_embeds
        for layer in self.layers:
            h = h + layer(h)
        return h

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = type("LlamaConfig", (), {"hidden_size": 16})()
        self.model = LlamaModel()
        self.lm_head = nn.Linear(16, 32, bias=False)
    def forward(self, inputs_embeds):
        return self.lm_head(self.model(inputs_embeds))
    @classmethod
    def from_pretrained(cls, path, torch_dtype=None, load_in_8bit=False, device_map=None):
        model = cls()
        model.hf_device_map = dict(device_map or {})
        for name, dev in model.hf_device_map.items():
            sub = model.get_submodule(name) if name else model
            sub.to(f"cuda:{dev}")
            sub.register_forward_pre_hook(_align_devices_hook(torch.device(f"cuda:{dev}")))
        return model

class MiniGPT4(nn.Module):
    def __init__(self, llama_model="vicuna-7b", low_resource=True, device_8bit=0, num_query_token=4):
        super().__init__()
        self.low_resource = low_resource
        # init_vision_encoder(vit_model, img_size, ..., vit_precision="fp16"), reduced
        self.visual_encoder = nn.Sequential(nn.Conv2d(3, 24, 8, stride=8), nn.Flatten(2)).half()
        self.ln_vision = nn.LayerNorm(4).half()
        self.query_tokens = nn.Parameter(torch.zeros(1, num_query_token, 12))
        self.Qformer = nn.MultiheadAttention(12, 2, kdim=4, vdim=4, batch_first=True)
        if self.low_resource:
            self.llama_model = LlamaForCausalLM.from_pretrained(
                llama_model,
                torch_dtype=torch.float16,
                load_in_8bit=True,
                device_map={'': device_8bit}
            )
        self.llama_proj = nn.Linear(12, self.llama_model.config.hidden_size)

    def maybe_autocast(self, dtype=torch.float16):
        return contextlib.nullcontext()

    def vit_to_cpu(self):
        self.ln_vision.to("cpu")
        self.ln_vision.float()
        self.visual_encoder.to("cpu")
        self.visual_encoder.float()

    def encode_img(self, image):
        device = image.device
        if self.low_resource:
            self.vit_to_cpu()
            image = image.to("cpu")
        with self.maybe_autocast():
            image_embeds = self.ln_vision(self.visual_encoder(image)).to(device)
            image_atts = torch.ones(image_embeds.size()[:-1], dtype=torch.long).to(device)
            query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
            query_output, _ = self.Qformer(query_tokens, image_embeds, image_embeds)
            inputs_llama = self.llama_proj(query_output)
            atts_llama = torch.ones(inputs_llama.size()[:-1], dtype=torch.long).to(image.device)
        return inputs_llama, atts_llama

class Chat:
    def __init__(self, model, vis_processor, device='cuda:0'):
        self.device = device
        self.model = model
        self.vis_processor = vis_processor

    def upload_img(self, image, conv, img_list):
        if isinstance(image, torch.Tensor):
            if len(image.shape) == 3:
                image = image.unsqueeze(0)
            image = image.to(self.device)
        image_emb, _ = self.model.encode_img(image)
        img_list.append(image_emb)
        return "Received."

    def get_context_emb(self, conv, img_list):
        seg_tokens = [torch.tensor([[1, 5, 9]]).to(self.device), torch.tensor([[7, 2]]).to(self.device)]
        seg_embs = [self.model.llama_model.model.embed_tokens(seg_t) for seg_t in seg_tokens]
        mixed_embs = [seg_embs[0], img_list[0], seg_embs[1]]
        return torch.cat(mixed_embs, dim=1)

    def answer(self, conv, img_list, max_new_tokens=300):
        embs = self.get_context_emb(conv, img_list)
        logits = self.model.llama_model(embs)          # first step of llama_model.generate(inputs_embeds=embs)
        return logits[:, -1].argmax(-1)

# demo.py --gpu_id 1
gpu_id = 1
model = MiniGPT4(low_resource=True, device_8bit=gpu_id).to('cuda:{}'.format(gpu_id))
chat = Chat(model, vis_processor=None, device='cuda:{}'.format(gpu_id))
chat_state = []
img_list = []
gr_img = torch.randn(3, 16, 16)        # the uploaded image after Blip2ImageEvalProcessor
'''
CELL = '''
with torch.no_grad():
    llm_message = chat.upload_img(gr_img, chat_state, img_list)
    output = chat.answer(conv=chat_state, img_list=img_list, max_new_tokens=300)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
