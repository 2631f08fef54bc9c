"""BLIP `train_retrieval.py` evaluation, image-to-text half: ViT features are stored on the CPU and each image's row is repeated and moved back to the GPU before re-ranking.

Source: https://github.com/salesforce/BLIP/blob/main/train_retrieval.py (evaluation).
`image_feats.append(image_feat.cpu())` keeps the full ViT features on the host to save GPU memory;
the image-to-text loop then takes one image's features by an integer position,
`encoder_output = image_feats[start+i].repeat(config['k_test'],1,1).to(device)`, and indexes only
GPU tensors (`text_ids[topk_idx]`, `text_atts[topk_idx]`) with the GPU `topk_idx`. That loop runs.
(The text-to-image loop of the same function indexes the CPU features with the GPU `topk_idx`,
salesforce/BLIP#158; it is not part of this case.) Stand-in: the same BLIP_Retrieval pieces and
`evaluation` up to the image-to-text scores, with `[...]` lookups written `select`/`index_select`/
`index_copy_` for the simulator (which cannot index fake GPU tensors with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

# --- stand-in for BLIP's models/blip_retrieval.py (BLIP_Retrieval) --------------------------------
class BatchEncoding(dict):
    def __getattr__(self, k):
        return self[k]
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class Tokenizer:
    enc_token_id = 3
    def __call__(self, text, padding='max_length', truncation=True, max_length=35, return_tensors="pt"):
        ids = torch.tensor([[1] + [4 + (hash(w) % 90) for w in t.split()][:max_length - 1] + [0] * (max_length - 1 - len(t.split()[:max_length - 1])) for t in text])
        return BatchEncoding(input_ids=ids, attention_mask=(ids != 0).long())

class TextEncoder(nn.Module):               # BertModel with cross-attention (mode='text' / multimodal)
    def __init__(self, vocab=100, width=32, vision_width=48):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, width)
        self.self_attn = nn.Linear(width, width)
        self.cross_q = nn.Linear(width, width)
        self.cross_kv = nn.Linear(vision_width, 2 * width)
    def forward(self, input_ids, attention_mask=None, encoder_hidden_states=None, encoder_attention_mask=None,
                return_dict=True, mode='multimodal'):
        h = self.embeddings(input_ids)
        h = h + torch.tanh(self.self_attn(h)) * attention_mask.unsqueeze(-1).to(h.dtype)
        if mode != 'text':
            k, v = self.cross_kv(encoder_hidden_states).chunk(2, dim=-1)
            att = self.cross_q(h) @ k.transpose(1, 2) / h.shape[-1] ** 0.5
            att = att + (1.0 - encoder_attention_mask.unsqueeze(1).to(att.dtype)) * -10000.0
            h = h + att.softmax(-1) @ v
        return SimpleNamespace(last_hidden_state=h)

class BLIP_Retrieval(nn.Module):
    def __init__(self, embed_dim=16, vision_width=48, text_width=32):
        super().__init__()
        self.visual_encoder = nn.Sequential(nn.Conv2d(3, vision_width, 16, 16), nn.Flatten(2))   # ViT
        self.tokenizer = Tokenizer()
        self.text_encoder = TextEncoder(width=text_width, vision_width=vision_width)
        self.vision_proj = nn.Linear(vision_width, embed_dim)
        self.text_proj = nn.Linear(text_width, embed_dim)
        self.itm_head = nn.Linear(text_width, 2)

def get_world_size():
    return 1

def get_rank():
    return 0

# --- train_retrieval.py -------------------------------------------------------------------------------
@torch.no_grad()
def evaluation_i2t(model, data_loader, device, config):
    model.eval()

    texts = data_loader.dataset.text
    num_text = len(texts)
    text_bs = 256
    text_ids = []
    text_embeds = []
    text_atts = []
    for i in range(0, num_text, text_bs):
        text = texts[i: min(num_text, i+text_bs)]
        text_input = model.tokenizer(text, padding='max_length', truncation=True, max_length=35, return_tensors="pt").to(device)
        text_output = model.text_encoder(text_input.input_ids, attention_mask = text_input.attention_mask, mode='text')
        text_embed = F.normalize(model.text_proj(text_output.last_hidden_state.select(1, 0)))
        text_embeds.append(text_embed)
        text_ids.append(text_input.input_ids)
        text_atts.append(text_input.attention_mask)

    text_embeds = torch.cat(text_embeds,dim=0)
    text_ids = torch.cat(text_ids,dim=0)
    text_atts = torch.cat(text_atts,dim=0)
    text_ids.select(1, 0).fill_(model.tokenizer.enc_token_id)          # text_ids[:,0] = enc_token_id

    image_feats = []
    image_embeds = []
    for image, img_id in data_loader:
        image = image.to(device)
        image_feat = model.visual_encoder(image).transpose(1, 2)
        image_embed = model.vision_proj(image_feat.select(1, 0))
        image_embed = F.normalize(image_embed,dim=-1)

        image_feats.append(image_feat.cpu())
        image_embeds.append(image_embed)

    image_feats = torch.cat(image_feats,dim=0)
    image_embeds = torch.cat(image_embeds,dim=0)

    sims_matrix = image_embeds @ text_embeds.t()
    score_matrix_i2t = torch.full((len(data_loader.dataset.image),len(texts)),-100.0).to(device)

    num_tasks = get_world_size()
    rank = get_rank()
    step = sims_matrix.size(0)//num_tasks + 1
    start = rank*step
    end = min(sims_matrix.size(0),start+step)

    for i in range(end - start):
        sims = sims_matrix.select(0, start + i)
        topk_sim, topk_idx = sims.topk(k=config['k_test'], dim=0)

        encoder_output = image_feats.select(0, start+i).repeat(config['k_test'],1,1).to(device)
        encoder_att = torch.ones(encoder_output.size()[:-1],dtype=torch.long).to(device)
        output = model.text_encoder(text_ids.index_select(0, topk_idx),
                                    attention_mask = text_atts.index_select(0, topk_idx),
                                    encoder_hidden_states = encoder_output,
                                    encoder_attention_mask = encoder_att,
                                    return_dict = True,
                                   )
        score = model.itm_head(output.last_hidden_state.select(1, 0)).select(1, 1)
        score_matrix_i2t.select(0, start+i).index_copy_(0, topk_idx, score + topk_sim)

    return score_matrix_i2t

# --- main() -------------------------------------------------------------------------------------------
device = torch.device("cuda:0")       # torch.device(args.device)
config = {'k_test': 3}
model = BLIP_Retrieval().to(device)

test_dataset = SimpleNamespace(image=[f"img{i}.jpg" for i in range(6)],
                               text=[f"a photo of object number {i}" for i in range(12)])
class DataLoader(list):                 # create_loader(..., batch_size=[...], is_trains=[False])
    pass
test_loader = DataLoader([(torch.rand(3, 3, 32, 32), torch.arange(3)), (torch.rand(3, 3, 32, 32), torch.arange(3, 6))])
test_loader.dataset = test_dataset
'''
CELL = '''
score_test_i2t = evaluation_i2t(model, test_loader, device, config)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
