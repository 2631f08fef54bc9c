"""Fine-tuning the Recognize Anything (RAM) tagger with `finetune.py`: the multi-label `image_tag` targets stay on the CPU.

Source: https://github.com/xinyu1205/recognize-anything/issues/155
"[bug] finetune.py: ram and ram_plus not matched devices": in `train_ram` (and `train_ram_plus`)
the loop moves `image` and `image_224` to the device but not the tag targets, "Otherwise there is a
mismatch between cuda and cpu, when you compute loss": RAM's forward feeds the CUDA tagging logits
and the CPU `image_tag` to its AsymmetricLoss. The reported fix adds `image_tag = image_tag.to(device,
non_blocking=True)` (and the same for `parse_tag`, which RAM only reads through `.cpu().numpy()`).
Stand-in: RAM reduced to its tagging branch (a patch-embedding visual encoder, `label_embed`, a
cross-attention tagging head, `fc`, the library's AsymmetricLoss without its grad-mode toggling, and the CLIP distillation loss), a
tiny CLIP image encoder, and `train_ram` as in `finetune.py` without backward/step (no autograd in this
simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class AsymmetricLoss(nn.Module):
    def __init__(self, gamma_neg=4, gamma_pos=1, clip=0.05, eps=1e-8, disable_torch_grad_focal_loss=True):
        super(AsymmetricLoss, self).__init__()
        self.gamma_neg = gamma_neg
        self.gamma_pos = gamma_pos
        self.clip = clip
        self.disable_torch_grad_focal_loss = disable_torch_grad_focal_loss
        self.eps = eps

    def forward(self, x, y):
        x_sigmoid = torch.sigmoid(x)
        xs_pos = x_sigmoid
        xs_neg = 1 - x_sigmoid
        if self.clip is not None and self.clip > 0:
            xs_neg = (xs_neg + self.clip).clamp(max=1)
        los_pos = y * torch.log(xs_pos.clamp(min=self.eps))
        los_neg = (1 - y) * torch.log(xs_neg.clamp(min=self.eps))
        loss = los_pos + los_neg
        if self.gamma_neg > 0 or self.gamma_pos > 0:
            pt0 = xs_pos * y
            pt1 = xs_neg * (1 - y)
            pt = pt0 + pt1
            one_sided_gamma = self.gamma_pos * y + self.gamma_neg * (1 - y)
            one_sided_w = torch.pow(1 - pt, one_sided_gamma)
            loss *= one_sided_w
        return -loss.sum()

class VisualEncoder(nn.Module):                  # stands in for the Swin-B visual encoder
    def __init__(self, dim=32):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, 8, stride=8)
        self.norm = nn.LayerNorm(dim)

    def forward(self, image):
        x = self.patch_embed(image).flatten(2).transpose(1, 2)
        x = torch.cat([x.mean(dim=1, keepdim=True), x], dim=1)
        return self.norm(x)

class TaggingHead(nn.Module):                    # stands in for the BERT tagging decoder
    def __init__(self, dim=32):
        super().__init__()
        self.q = nn.Linear(dim, dim)

    def forward(self, encoder_embeds, encoder_hidden_states, encoder_attention_mask=None,
                return_dict=False, mode='tagging'):
        attn = (self.q(encoder_embeds) @ encoder_hidden_states.transpose(1, 2)).softmax(-1)
        return (encoder_embeds + attn @ encoder_hidden_states,)

class RAM(nn.Module):
    def __init__(self, num_class=6, dim=32, clip_dim=16):
        super().__init__()
        self.visual_encoder = VisualEncoder(dim)
        self.image_proj = nn.Linear(dim, clip_dim)
        self.label_embed = nn.Parameter(torch.zeros(num_class, 24))
        self.wordvec_proj = nn.Linear(24, clip_dim)
        self.tagging_head = TaggingHead(clip_dim)
        self.fc = nn.Linear(clip_dim, 1)
        self.tagging_loss_function = AsymmetricLoss(gamma_neg=7, clip=0.05, gamma_pos=0)

    def forward(self, image, caption, image_tag, parse_tag, clip_feature):
        label_embed = torch.nn.functional.relu(self.wordvec_proj(self.label_embed))
        image_embeds = self.image_proj(self.visual_encoder(image))
        image_atts = torch.ones(image_embeds.size()[:-1], dtype=torch.long).to(image.device)
        image_cls_embeds = image_embeds[:, 0, :]
        loss_dis = F.l1_loss(image_cls_embeds, clip_feature)
        bs = image_embeds.shape[0]
        label_embed = label_embed.unsqueeze(0).repeat(bs, 1, 1)
        tagging_embed = self.tagging_head(encoder_embeds=label_embed, encoder_hidden_states=image_embeds,
                                          encoder_attention_mask=image_atts, return_dict=False, mode='tagging')
        logits = self.fc(tagging_embed[0]).squeeze(-1)
        loss_tag = self.tagging_loss_function(logits, image_tag)
        loss_t2t = logits.new_zeros(())          # image-tag-text generation branch left out
        return loss_t2t, loss_tag, loss_dis

class CLIPVisual(nn.Module):
    def __init__(self, clip_dim=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, clip_dim, 8, stride=8)

    def encode_image(self, image):
        return self.conv1(image).flatten(2).mean(-1)

def train_ram(model, data_loader, optimizer, epoch, device, config, model_clip):
    model.train()
    for i, (image, image_224, caption, image_tag, parse_tag) in enumerate(data_loader):
        optimizer.zero_grad()
        image = image.to(device, non_blocking=True)
        image_224 = image_224.to(device, non_blocking=True)
        with torch.no_grad():
            clip_image_feature = model_clip.encode_image(image_224)
        loss_t2t, loss_tag, loss_dis = model(image, caption, image_tag, parse_tag, clip_image_feature)
        loss = loss_t2t + loss_tag + loss_dis
    return {"loss_tag": loss_tag, "loss_dis": loss_dis}

device = torch.device("cuda:0")
config = {"batch_size": 2, "image_size": 32}
model = RAM().to(device)                          # ram(pretrained=..., image_size=384, vit='swin_l')
model_clip = CLIPVisual().to(device).eval()       # clip.load("ViT-B/16")
optimizer = torch.optim.AdamW(filter(lambda p: p.requires_grad, model.parameters()), lr=5e-6)
tags = (torch.rand(2, 6) > 0.5).float()
data_loader = [(torch.randn(2, 3, 32, 32), torch.randn(2, 3, 32, 32), ["a dog", "a cat"], tags, tags.clone())
               for _ in range(2)]
'''
CELL = '''
train_stats = train_ram(model, data_loader, optimizer, 0, device, config, model_clip)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["train_ram"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        image_224 = image_224.to(device, non_blocking=True)\n",
                  "        image_224 = image_224.to(device, non_blocking=True)\n"
                  "        image_tag = image_tag.to(device, non_blocking=True)\n"
                  "        parse_tag = parse_tag.to(device, non_blocking=True)\n")
CLEAN = False
