"""InternVL multi-GPU inference with the README's split_model() device map.

Source: https://github.com/OpenGVLab/InternVL/issues/229
Multi-GPU chat with `device_map="auto"` hit "Expected all tensors to be on the same device ...
cuda:0 and cuda:1"; the layout InternVL documents for several GPUs, `split_model()`, puts
`vision_model`, `mlp1`, the token embeddings, the final norm, `lm_head` and the *last* decoder layer
on GPU 0 and spreads the remaining layers over the cards, so the image features, the merged input
embeddings and the logits meet on one device while hidden states travel 0 -> 1 -> 0 through the
hooked layers. `pixel_values` are `.to(torch.bfloat16).cuda()` as in the README. Stand-in: a
toy InternVLChatModel, a pre-hook in place of accelerate's AlignDevicesHook, bfloat16 weights.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) if torch.is_tensor(a) else a for a in args)

def dispatch(module, device):
    module.to(device)
    module.register_forward_pre_hook(align_devices_hook)   # the no-split block gets the hook

class InternLM2DecoderLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.feed_forward = nn.Linear(hidden, hidden)

    def forward(self, hidden_states):
        residual = hidden_states
        return residual + torch.tanh(self.feed_forward(hidden_states))

class InternLM2ForCausalLM(nn.Module):
    def __init__(self, vocab=100, hidden=48, num_layers=6):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([InternLM2DecoderLayer(hidden) for _ in range(num_layers)])
        self.norm = nn.LayerNorm(hidden)
        self.output = nn.Linear(hidden, vocab, bias=False)

    def forward(self, inputs_embeds):
        h = inputs_embeds
        for layer in self.layers:
            h = layer(h)
        return self.output(self.norm(h))

class InternVLChatModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision_model = nn.Sequential(nn.Conv2d(3, 32, 8, stride=8), nn.Flatten(2))
        self.mlp1 = nn.Sequential(nn.LayerNorm(32), nn.Linear(32, 48), nn.GELU(), nn.Linear(48, 48))
        self.language_model = InternLM2ForCausalLM()

    def extract_feature(self, pixel_values):
        return self.mlp1(self.vision_model(pixel_values).transpose(1, 2))

    @torch.no_grad()
    def chat(self, tokenizer, pixel_values, question, generation_config):
        vit_embeds = self.extract_feature(pixel_values)
        input_ids = tokenizer(question).to(self.language_model.tok_embeddings.weight.device)
        input_embeds = self.language_model.tok_embeddings(input_ids)
        input_embeds = torch.cat([vit_embeds.reshape(1, -1, 48).to(input_embeds.device), input_embeds], dim=1)
        logits = self.language_model(input_embeds)
        return logits[:, -1].argmax(-1)

def split_model(num_layers=6, world_size=2):
    device_map = {}
    num_layers_per_gpu = [2, 4]          # the first GPU counts as half a GPU (it holds the ViT)
    layer_cnt = 0
    for i, num_layer in enumerate(num_layers_per_gpu):
        for j in range(num_layer):
            device_map[f"language_model.layers.{layer_cnt}"] = i
            layer_cnt += 1
    device_map["vision_model"] = 0
    device_map["mlp1"] = 0
    device_map["language_model.tok_embeddings"] = 0
    device_map["language_model.output"] = 0
    device_map["language_model.norm"] = 0
    device_map[f"language_model.layers.{num_layers - 1}"] = 0
    return device_map

def tokenizer(text):
    return torch.tensor([[ord(c) % 100 for c in text]])

model = InternVLChatModel().to(torch.bfloat16).eval()    # torch_dtype=torch.bfloat16
for name, gpu in split_model().items():
    dispatch(model.get_submodule(name), f"cuda:{gpu}")
generation_config = dict(max_new_tokens=1024, do_sample=True)
# load_image('./examples/image1.jpg', max_num=12).to(torch.bfloat16).cuda()
pixel_values = torch.randn(2, 3, 32, 32).to(torch.bfloat16).to("cuda:0")
'''
CELL = '''
question = "<image>\\nPlease describe the image shortly."
response = model.chat(tokenizer, pixel_values, question, generation_config)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
