"""ViLT `demo_vqa.py` on one GPU: `visual_embed` builds `patch_index` from `torch.arange` on the CPU and indexes it with the GPU patch selection.

Source: https://github.com/dandelin/ViLT/issues/81
"RuntimeError: indices should be either on cpu or on the same device as the indexed tensor (cpu)" --
"VQA runtimeError with GPU" running `python demo_vqa.py with num_gpus=1 load_path=weights/vilt_vqa.ckpt`
(PyTorch 1.13). In `VisionTransformer.visual_embed`, `patch_index` is made from
`torch.meshgrid(torch.arange(...), torch.arange(...))` with no device, then
`patch_index[select[:, 0], select[:, 1]]` uses `select`, built from the CUDA `x_mask`. The fix given
in the thread: "manually add patch_index = patch_index.to("cuda:0")". Stand-in: `ViLTransformerSS.infer`
and `visual_embed` at toy size; every patch is valid and kept, so `select` (ViLT: `x_mask.nonzero()`
plus multinomial padding) is enumerated with `arange`, and the `[rows, cols]` lookups are written as
`index_select` on the flattened tensors (the simulator cannot index fake GPU tensors with `[]`,
and its `index_select` reports the device mismatch as "Expected all tensors to be on the same device").
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

# --- stand-in for vilt/modules (vision_transformer.py, vilt_module.py) ---------------------------
class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))
    def forward(self, x, mask=None):
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        attn = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        if mask is not None:
            attn = attn + (1.0 - mask.unsqueeze(1).to(attn.dtype)) * -10000.0
        attn = attn.softmax(dim=-1)
        x = x + self.proj(attn @ v)
        return x + self.mlp(self.norm2(x)), attn

class PatchEmbed(nn.Module):
    def __init__(self, patch_size=16, embed_dim=32):
        super().__init__()
        self.proj = nn.Conv2d(3, embed_dim, kernel_size=patch_size, stride=patch_size)
    def forward(self, x):
        return self.proj(x)

class VisionTransformer(nn.Module):
    def __init__(self, img_size=64, patch_size=16, embed_dim=32, depth=2):
        super().__init__()
        self.patch_size = patch_size
        self.patch_dim = img_size // patch_size
        self.patch_embed = PatchEmbed(patch_size, embed_dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, self.patch_dim ** 2 + 1, embed_dim))
        self.pos_drop = nn.Dropout(0.1)
        self.blocks = nn.ModuleList([Block(embed_dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(embed_dim)

    def visual_embed(self, _x, max_image_len=200, mask_it=False):
        x = self.patch_embed(_x)
        x_mask = (_x.sum(dim=1) != 0).float().unsqueeze(1)
        x_mask = F.interpolate(x_mask, size=(x.shape[2], x.shape[3])).long()

        B, C, H, W = x.shape
        pos_embed = self.pos_embed.narrow(1, 1, H * W).expand(B, -1, -1)   # spatial_pos interpolated to (h, w)
        x = x.flatten(2).transpose(1, 2)
        patch_index = (
            torch.stack(
                torch.meshgrid(
                    torch.arange(x_mask.shape[-2]), torch.arange(x_mask.shape[-1]), indexing="ij"
                ),
                dim=-1,
            ).unsqueeze(0).unsqueeze(0)
            .expand(x_mask.shape[0], x_mask.shape[1], -1, -1, -1)
            .flatten(1, 3)
        )
        x_mask = x_mask.flatten(1)

        # select = rows/cols of the kept patches (ViLT: x_mask.nonzero() + multinomial padding)
        rows = torch.arange(B, device=x_mask.device).repeat_interleave(H * W)
        cols = torch.arange(H * W, device=x_mask.device).repeat(B)
        select = rows * (H * W) + cols
        x = x.flatten(0, 1).index_select(0, select).view(B, -1, C)                       # x[select[:, 0], select[:, 1]]
        x_mask = x_mask.flatten(0, 1).index_select(0, select).view(B, -1)
        patch_index = patch_index.flatten(0, 1).index_select(0, select).view(B, -1, 2)
        pos_embed = pos_embed.flatten(0, 1).index_select(0, select).view(B, -1, C)

        cls_tokens = self.cls_token.expand(B, -1, -1)
        x = torch.cat((cls_tokens, x), dim=1)
        pos_embed = torch.cat((self.pos_embed.narrow(1, 0, 1).expand(B, -1, -1), pos_embed), dim=1)
        x = x + pos_embed
        x = self.pos_drop(x)
        x_mask = torch.cat([torch.ones(x_mask.shape[0], 1).to(x_mask), x_mask], dim=1)
        return x, x_mask, (patch_index, (H, W)), None

class Pooler(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.dense = nn.Linear(hidden_size, hidden_size)
        self.activation = nn.Tanh()
    def forward(self, hidden_states):
        return self.activation(self.dense(hidden_states.select(1, 0)))

class ViLTransformerSS(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        hs = config["hidden_size"]
        self.text_embeddings = nn.Embedding(config["vocab_size"], hs)
        self.token_type_embeddings = nn.Embedding(2, hs)
        self.transformer = VisionTransformer(embed_dim=hs)
        self.pooler = Pooler(hs)
        self.vqa_classifier = nn.Sequential(nn.Linear(hs, hs * 2), nn.LayerNorm(hs * 2), nn.GELU(),
                                            nn.Linear(hs * 2, config["vqav2_label_size"]))

    def infer(self, batch, mask_text=False, mask_image=False, image_token_type_idx=1):
        do_mlm = "_mlm" if mask_text else ""
        text_ids = batch[f"text_ids{do_mlm}"]
        text_masks = batch[f"text_masks"]
        text_embeds = self.text_embeddings(text_ids)
        img = batch["image"][0]
        (image_embeds, image_masks, patch_index, image_labels) = self.transformer.visual_embed(
            img, max_image_len=self.config["max_image_len"], mask_it=mask_image)
        text_embeds, image_embeds = (
            text_embeds + self.token_type_embeddings(torch.zeros_like(text_masks)),
            image_embeds + self.token_type_embeddings(torch.full_like(image_masks, image_token_type_idx)),
        )
        co_embeds = torch.cat([text_embeds, image_embeds], dim=1)
        co_masks = torch.cat([text_masks, image_masks], dim=1)
        x = co_embeds
        for i, blk in enumerate(self.transformer.blocks):
            x, _attn = blk(x, mask=co_masks)
        x = self.transformer.norm(x)
        text_feats = x.narrow(1, 0, text_embeds.shape[1])
        image_feats = x.narrow(1, text_embeds.shape[1], x.shape[1] - text_embeds.shape[1])
        cls_feats = self.pooler(x)
        return {"text_feats": text_feats, "image_feats": image_feats, "cls_feats": cls_feats,
                "raw_cls_feats": x.select(1, 0), "image_masks": image_masks, "text_ids": text_ids,
                "text_masks": text_masks, "patch_index": patch_index}

# --- demo_vqa.py -----------------------------------------------------------------------------------
_config = {"num_gpus": 1, "hidden_size": 32, "vocab_size": 100, "vqav2_label_size": 20, "max_image_len": 200}
model = ViLTransformerSS(_config)
model.eval()
device = "cuda:0" if _config["num_gpus"] > 0 else "cpu"
model.to(device)

encoded = {"input_ids": [[1, 17, 42, 9, 2]], "attention_mask": [[1, 1, 1, 1, 1]]}   # tokenizer(batch["text"])
img = torch.rand(3, 64, 64)        # pixelbert_transform(size=384)(image)
img = img.unsqueeze(0).to(device)
batch = {"text": ["What is the color of the flower?"], "image": [img]}
batch["text_ids"] = torch.tensor(encoded["input_ids"]).to(device)
batch["text_labels"] = torch.tensor(encoded["input_ids"]).to(device)
batch["text_masks"] = torch.tensor(encoded["attention_mask"]).to(device)
'''
CELL = '''
with torch.no_grad():
    infer = model.infer(batch)
    vqa_logits = model.vqa_classifier(infer["cls_feats"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.transformer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        x_mask = x_mask.flatten(1)\n",
    "        x_mask = x_mask.flatten(1)\n        patch_index = patch_index.to(\"cuda:0\")\n",
)
CLEAN = False
