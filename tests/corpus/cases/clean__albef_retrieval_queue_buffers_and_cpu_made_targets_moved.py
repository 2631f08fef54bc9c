"""ALBEF retrieval fine-tuning step: queue buffers follow the model; CPU-made masks/labels moved at use.

Source: https://github.com/salesforce/ALBEF/blob/main/models/model_retrieval.py
ALBEF keeps its momentum-contrast queues as registered buffers (`image_queue`, `text_queue`,
`idx_queue`, `queue_ptr`), so `model.to(device)` moves them, and builds the encoder attention mask
and the ITM labels on the CPU inside forward, moving them with `.to(image.device)` before use. A
training step on the GPU runs. Stand-in: model_retrieval.py's ITA/ITM path at toy size (ViT/BERT
as small linear encoders, `torch.multinomial(...).item()` hard-negative sampling replaced by a
roll, no queue update); the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Text:
    def __init__(self, input_ids, attention_mask):
        self.input_ids, self.attention_mask = input_ids, attention_mask

class ALBEF(nn.Module):
    def __init__(self, embed_dim=16, width=32, vocab=100, queue_size=8, temp=0.07):
        super().__init__()
        self.visual_encoder = nn.Sequential(nn.Conv2d(3, width, 8, stride=8), nn.Flatten(2))
        self.token_embed = nn.Embedding(vocab, width)
        self.fusion = nn.Linear(width, width)
        self.vision_proj = nn.Linear(width, embed_dim)
        self.text_proj = nn.Linear(width, embed_dim)
        self.temp = nn.Parameter(torch.ones([]) * temp)
        self.itm_head = nn.Linear(width, 2)
        self.register_buffer("image_queue", F.normalize(torch.randn(embed_dim, queue_size), dim=0))
        self.register_buffer("text_queue", F.normalize(torch.randn(embed_dim, queue_size), dim=0))
        self.register_buffer("idx_queue", torch.full((1, queue_size), -100))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    def forward(self, image, text, alpha, idx):
        image_embeds = self.visual_encoder(image).transpose(1, 2)
        image_atts = torch.ones(image_embeds.size()[:-1], dtype=torch.long).to(image.device)
        image_feat = F.normalize(self.vision_proj(image_embeds[:, 0, :]), dim=-1)
        text_embeds = self.token_embed(text.input_ids)
        text_feat = F.normalize(self.text_proj(text_embeds[:, 0, :]), dim=-1)

        idx = idx.view(-1, 1)
        idx_all = torch.cat([idx.t(), self.idx_queue.clone().detach()], dim=1)
        pos_idx = torch.eq(idx, idx_all).float()
        sim_targets = pos_idx / pos_idx.sum(1, keepdim=True)

        image_feat_all = torch.cat([image_feat.detach().t(), self.image_queue.clone().detach()], dim=1)
        text_feat_all = torch.cat([text_feat.detach().t(), self.text_queue.clone().detach()], dim=1)
        sim_i2t = image_feat @ text_feat_all / self.temp
        sim_t2i = text_feat @ image_feat_all / self.temp
        loss_i2t = -torch.sum(F.log_softmax(sim_i2t, dim=1) * sim_targets, dim=1).mean()
        loss_t2i = -torch.sum(F.log_softmax(sim_t2i, dim=1) * sim_targets, dim=1).mean()
        loss_ita = (loss_i2t + loss_t2i) / 2

        bs = image.size(0)
        mask = image_atts[:, :, None].float()
        fused_pos = self.fusion(text_embeds[:, :1] + (image_embeds * mask).mean(1, keepdim=True))
        image_embeds_neg = image_embeds.roll(1, dims=0)
        fused_neg = self.fusion(text_embeds[:, :1] + (image_embeds_neg * mask).mean(1, keepdim=True))
        vl_output = self.itm_head(torch.cat([fused_pos[:, 0], fused_neg[:, 0], fused_neg[:, 0]], dim=0))
        itm_labels = torch.cat([torch.ones(bs, dtype=torch.long), torch.zeros(2 * bs, dtype=torch.long)],
                               dim=0).to(image.device)
        loss_itm = F.cross_entropy(vl_output, itm_labels)
        return loss_ita, loss_itm

device = torch.device("meta")   # the GPU, simulated with meta
model = ALBEF().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5, weight_decay=0.02)

# one batch of the retrieval loader: (image, caption, idx), then .to(device, non_blocking=True)
image = torch.randn(4, 3, 32, 32).to(device, non_blocking=True)
text_input = Text(torch.randint(0, 100, (4, 12)).to(device), torch.ones(4, 12, dtype=torch.long).to(device))
idx = torch.tensor([3, 7, 7, 11]).to(device, non_blocking=True)
alpha = 0.4
'''
CELL = '''
loss_ita, loss_itm = model(image, text_input, alpha=alpha, idx=idx)
loss = loss_ita + loss_itm
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
