"""YOLOS loaded with device_map="auto" over two GPUs: the encoder's `mid_position_embeddings` stay on the first GPU while later layers run on the second.

Source: https://github.com/huggingface/transformers/issues/46869
A YOLOS object detector loaded with `device_map="auto"` on a multi-GPU machine fails with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!". As traced in the
thread (and fixed by PR #46886), `mid_position_embeddings` is a parameter of `YolosEncoder` itself, placed
with the encoder, while `device_map="auto"` puts individual `YolosLayer`s on different GPUs; in the encoder
loop `hidden_states + interpolated_mid_position_embeddings[i]` adds a cuda:1 layer output to cuda:0
embeddings. The fix moves `interpolated_mid_position_embeddings[i]` to `hidden_states.device`. Stand-ins:
a four-layer YOLOS (interpolation at the pretraining size is the identity), accelerate's dispatch_model
with device-aligning hooks.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def send_to_device(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(send_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: send_to_device(v, device) for k, v in obj.items()}
    return obj

def dispatch_model(model, device_map):
    # stand-in for accelerate.dispatch_model: each entry is moved to its GPU and gets an
    # AlignDevicesHook-like pre-hook that moves the module's inputs to that GPU
    for name, device in device_map.items():
        module = model.get_submodule(name) if name else model
        module.to(device)
        def pre_hook(mod, args, kwargs, device=device):
            return send_to_device(args, device), send_to_device(kwargs, device)
        module.register_forward_pre_hook(pre_hook, with_kwargs=True)
    model.hf_device_map = dict(device_map)
    return model

class YolosConfig:
    hidden_size = 32
    num_hidden_layers = 4
    num_detection_tokens = 10
    patch_size = 16
    image_size = [64, 64]
    num_channels = 3
    use_mid_position_embeddings = True
    num_labels = 5

class InterpolateMidPositionEmbeddings(nn.Module):
    # stand-in: at the pretraining image size the interpolation gives the embeddings back unchanged
    def __init__(self, config):
        super().__init__()
        self.config = config
    def forward(self, pos_embed, img_size):
        return pos_embed

class YolosLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        d = config.hidden_size
        self.layernorm_before = nn.LayerNorm(d)
        self.attention = nn.Linear(d, d)
        self.layernorm_after = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, hidden_states):
        hidden_states = self.attention(self.layernorm_before(hidden_states)) + hidden_states
        return (self.mlp(self.layernorm_after(hidden_states)) + hidden_states,)

class YolosEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.layer = nn.ModuleList([YolosLayer(config) for _ in range(config.num_hidden_layers)])
        seq_length = 1 + (config.image_size[0] * config.image_size[1] // config.patch_size**2) + config.num_detection_tokens
        self.mid_position_embeddings = (
            nn.Parameter(torch.zeros(config.num_hidden_layers - 1, 1, seq_length, config.hidden_size))
            if config.use_mid_position_embeddings else None)
        self.interpolation = InterpolateMidPositionEmbeddings(config) if config.use_mid_position_embeddings else None

    def forward(self, hidden_states, height, width):
        if self.config.use_mid_position_embeddings:
            interpolated_mid_position_embeddings = self.interpolation(self.mid_position_embeddings, (height, width))
        for i, layer_module in enumerate(self.layer):
            layer_outputs = layer_module(hidden_states)
            hidden_states = layer_outputs[0]
            if self.config.use_mid_position_embeddings:
                if i < (self.config.num_hidden_layers - 1):
                    hidden_states = hidden_states + interpolated_mid_position_embeddings[i]
        return hidden_states

class YolosEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.patch_embeddings = nn.Conv2d(config.num_channels, config.hidden_size, config.patch_size, config.patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, config.hidden_size))
        self.detection_tokens = nn.Parameter(torch.zeros(1, config.num_detection_tokens, config.hidden_size))
    def forward(self, pixel_values):
        b = pixel_values.shape[0]
        x = self.patch_embeddings(pixel_values).flatten(2).transpose(1, 2)
        return torch.cat([self.cls_token.expand(b, -1, -1), x, self.detection_tokens.expand(b, -1, -1)], dim=1)

class YolosModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embeddings = YolosEmbeddings(config)
        self.encoder = YolosEncoder(config)
        self.layernorm = nn.LayerNorm(config.hidden_size)
    def forward(self, pixel_values):
        h = self.embeddings(pixel_values)
        h = self.encoder(h, height=pixel_values.shape[-2], width=pixel_values.shape[-1])
        return self.layernorm(h)

class YolosForObjectDetection(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.vit = YolosModel(config)
        self.class_labels_classifier = nn.Linear(config.hidden_size, config.num_labels + 1)
        self.bbox_predictor = nn.Linear(config.hidden_size, 4)
    def forward(self, pixel_values):
        sequence_output = self.vit(pixel_values)
        sequence_output = sequence_output[:, -self.config.num_detection_tokens:, :]
        return self.class_labels_classifier(sequence_output), self.bbox_predictor(sequence_output).sigmoid()

# YolosForObjectDetection.from_pretrained("hustvl/yolos-small", device_map="auto") on two GPUs
model = YolosForObjectDetection(YolosConfig())
device_map = {"vit.embeddings": "cuda:0", "vit.encoder": "cuda:0",
              "vit.encoder.layer.0": "cuda:0", "vit.encoder.layer.1": "cuda:0",
              "vit.encoder.layer.2": "cuda:1", "vit.encoder.layer.3": "cuda:1",
              "vit.layernorm": "cuda:1", "class_labels_classifier": "cuda:1", "bbox_predictor": "cuda:1"}
model = dispatch_model(model, device_map)
pixel_values = torch.randn(1, 3, 64, 64).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits, pred_boxes = model(pixel_values)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.vit.encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("hidden_states = hidden_states + interpolated_mid_position_embeddings[i]",
                  "hidden_states = hidden_states + interpolated_mid_position_embeddings[i].to(hidden_states.device)")
CLEAN = False
