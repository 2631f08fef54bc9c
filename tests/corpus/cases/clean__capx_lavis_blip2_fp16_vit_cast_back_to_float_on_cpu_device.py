"""LAVIS BLIP-2 feature extractor on a CPU-only machine: the EVA ViT is built in fp16, and `load_model_and_preprocess` casts the whole model back to float32.

Source: https://github.com/salesforce/LAVIS/blob/main/lavis/models/__init__.py (load_model_and_preprocess)
and lavis/models/blip2_models/blip2.py, eva_vit.py. `create_eva_vit_g(..., precision="fp16")` converts
the ViT's Conv/Linear weights to half at construction, but `load_model_and_preprocess` does
`if device == "cpu" or device == torch.device("cpu"): model = model.float()` before `.to(device)`, so on
a CPU machine the float32 image meets float32 weights and `extract_features(mode="image")` runs
(the fp16-safe `LayerNorm` casts through float32 anyway). Stand-in: the same LAVIS pieces as
`load_model_and_preprocess` / `convert_weights_to_fp16` / `Blip2Qformer.extract_features` at toy size
(`maybe_autocast` around the ViT call is a no-op on the CPU and is left out).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

# --- stand-in for lavis (Feb 2023) ---------------------------------------------------------------
def convert_weights_to_fp16(model: nn.Module):
    """Convert applicable model parameters to fp16"""
    def _convert_weights_to_fp16(l):
        if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            l.weight.data = l.weight.data.half()
            if l.bias is not None:
                l.bias.data = l.bias.data.half()
    model.apply(_convert_weights_to_fp16)

class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn_qkv = nn.Linear(dim, dim * 3)
        self.attn_proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))
    def forward(self, x):
        q, k, v = self.attn_qkv(self.norm1(x)).chunk(3, dim=-1)
        x = x + self.attn_proj(F.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, -1) @ v)
        return x + self.mlp(self.norm2(x))

class VisionTransformer(nn.Module):
    def __init__(self, img_size=56, patch_size=14, embed_dim=48, depth=2):
        super().__init__()
        self.num_features = embed_dim
        self.patch_embed = nn.Conv2d(3, embed_dim, patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, (img_size // patch_size) ** 2 + 1, embed_dim))
        self.blocks = nn.ModuleList([Block(embed_dim) for _ in range(depth)])
    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1).to(x.dtype), x), dim=1)
        x = x + self.pos_embed.to(x.dtype)
        for blk in self.blocks:
            x = blk(x)
        return x

def create_eva_vit_g(img_size=224, drop_path_rate=0.4, use_checkpoint=False, precision="fp16"):
    model = VisionTransformer(img_size=img_size)      # EVA ViT-g/14, weights from eva_vit_g.pth
    if precision == "fp16":
        convert_weights_to_fp16(model)
    return model

class LayerNorm(nn.LayerNorm):
    """Subclass torch's LayerNorm to handle fp16."""
    def forward(self, x: torch.Tensor):
        orig_type = x.dtype
        ret = super().forward(x.type(torch.float32))
        return ret.type(orig_type)

class BertCrossLayer(nn.Module):                      # the Q-Former (BERT with cross-attention)
    def __init__(self, dim, enc_dim):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(enc_dim, dim)
        self.value = nn.Linear(enc_dim, dim)
        self.output = nn.Linear(dim, dim)
    def forward(self, query_embeds, encoder_hidden_states, encoder_attention_mask):
        q = self.query(query_embeds)
        k, v = self.key(encoder_hidden_states), self.value(encoder_hidden_states)
        scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        scores = scores + (1.0 - encoder_attention_mask[:, None, :].to(scores.dtype)) * -10000.0
        return self.output(F.softmax(scores, dim=-1) @ v)

class Blip2Qformer(nn.Module):
    def __init__(self, img_size=56, num_query_token=8, qformer_dim=32, embed_dim=16, vit_precision="fp16"):
        super().__init__()
        self.visual_encoder = create_eva_vit_g(img_size, 0, False, vit_precision)
        self.ln_vision = LayerNorm(self.visual_encoder.num_features)
        self.query_tokens = nn.Parameter(torch.zeros(1, num_query_token, qformer_dim))
        self.Qformer = BertCrossLayer(qformer_dim, self.visual_encoder.num_features)
        self.vision_proj = nn.Linear(qformer_dim, embed_dim)

    @torch.no_grad()
    def extract_features(self, samples, mode="multimodal"):
        image = samples.get("image")
        assert mode in ["image", "text", "multimodal"], "mode must be one of 'image', 'text', 'multimodal'"
        image_embeds, image_features = None, None
        if mode == "image":
            assert image is not None, "Image is not provided for mode 'image' or 'multimodal'"
            image_embeds_frozen = self.ln_vision(self.visual_encoder(image))
            image_atts = torch.ones(image_embeds_frozen.size()[:-1], dtype=torch.long).to(self.device)
            query_tokens = self.query_tokens.expand(image_embeds_frozen.shape[0], -1, -1)
            image_embeds = self.Qformer(query_tokens, encoder_hidden_states=image_embeds_frozen,
                                        encoder_attention_mask=image_atts)
            image_features = F.normalize(self.vision_proj(image_embeds), dim=-1)
        return {"image_embeds": image_embeds, "image_embeds_proj": image_features}

    @property
    def device(self):
        return list(self.parameters())[0].device

def load_model_and_preprocess(name, model_type, is_eval=False, device="cpu"):
    model = Blip2Qformer()                            # load_model_class(name).from_pretrained(model_type)
    if is_eval:
        model.eval()
    vis_processors = {"eval": lambda raw_image: torch.rand(3, 56, 56)}   # BlipImageEvalProcessor
    txt_processors = {"eval": lambda caption: caption.lower()}
    if device == "cpu" or device == torch.device("cpu"):
        model = model.float()
    return model.to(device), vis_processors, txt_processors

# --- the notebook ----------------------------------------------------------------------------------
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")   # no GPU here: "cpu"
raw_image = None                # Image.open("../docs/_static/merlion.png").convert("RGB")
caption = "a large fountain spewing water into the air"

model, vis_processors, txt_processors = load_model_and_preprocess(
    name="blip2_feature_extractor", model_type="pretrain", is_eval=True, device=device)
image = vis_processors["eval"](raw_image).unsqueeze(0).to(device)
text_input = txt_processors["eval"](caption)
sample = {"image": image, "text_input": [text_input]}
'''
CELL = '''
features_image = model.extract_features(sample, mode="image")
print(features_image["image_embeds_proj"].shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
