"""Frozen-in-Time validation: `_valid_epoch` moves `data['text']` to the GPU but not `data['video']`.

Source: https://github.com/m-bain/frozen-in-time/issues/4
"When I run the training script you provided, I get the error: RuntimeError: Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same. It's coming from
`video_embeddings = self.compute_video(video_data)` in `self._valid_epoch(-1)`. Are the videos
placed on GPU too? ... I fixed it by moving them to the GPU in validation." In the training loop
both `data['text']` and `data['video']` are sent `.to(self.device)`; the validation loop of that
version only moved the tokenized text (the repo later adds `data['video'] =
data['video'].to(self.device)`). Stand-in: a text encoder and a frame-patch video encoder with the
repo's compute_text/compute_video and sim_matrix; the validation loop body is run as a cell.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn as nn

def sim_matrix(a, b, eps=1e-8):
    a_n, b_n = a.norm(dim=1)[:, None], b.norm(dim=1)[:, None]
    a_norm = a / torch.clamp(a_n, min=eps)
    b_norm = b / torch.clamp(b_n, min=eps)
    return torch.mm(a_norm, b_norm.transpose(0, 1))

class FrozenInTime(nn.Module):
    def __init__(self, vocab=100, frames=4, patch_dim=3 * 16 * 16, projection_dim=32):
        super().__init__()
        self.text_model = nn.Embedding(vocab, 48)
        self.video_model = nn.Sequential(nn.Flatten(2), nn.Linear(patch_dim, 64), nn.GELU())
        self.txt_proj = nn.Linear(48, projection_dim)
        self.vid_proj = nn.Linear(64, projection_dim)

    def compute_text(self, text_data):
        mask = text_data['attention_mask'].unsqueeze(-1).float()
        text_embeddings = (self.text_model(text_data['input_ids']) * mask).sum(1) / mask.sum(1)
        return self.txt_proj(text_embeddings)

    def compute_video(self, video_data):
        video_embeddings = self.video_model(video_data).mean(1)
        return self.vid_proj(video_embeddings)

    def forward(self, data, return_embeds=True):
        text_data = data['text']
        video_data = data['video']
        text_embeddings = self.compute_text(text_data)
        video_embeddings = self.compute_video(video_data)
        if return_embeds:
            return text_embeddings, video_embeddings
        return sim_matrix(text_embeddings, video_embeddings)

device = torch.device("cuda:0")
model = FrozenInTime().to(device)
model.eval()

# one batch of the validation DataLoader (text already tokenized)
data = {'meta': {'paths': ['v0', 'v1']},
        'text': {'input_ids': torch.randint(0, 100, (2, 7)), 'attention_mask': torch.ones(2, 7, dtype=torch.long)},
        'video': torch.randn(2, 4, 3, 16, 16)}
'''
CELL = '''
with torch.no_grad():
    data['text'] = {key: val.to(device) for key, val in data['text'].items()}
    text_embed, vid_embed = model(data, return_embeds=True)
    sims_batch = sim_matrix(text_embed, vid_embed)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "should be the same")
CULPRITS = ["data['video']"]
FIX = "namespace"
REFERENCE_FIX = '''
data['video'] = data['video'].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
