"""DPR `validate_average_rank`: the BiEncoderBatch built for average-rank validation is never moved to the GPU.

Source: https://github.com/facebookresearch/DPR/issues/173
"A problem about the device of biencoder_input in validate_average_rank()": training with
`val_av_rank_start_epoch=0` on one GPU fails in the average-rank validation ("Expected object of device
type cuda but got device type cpu ... index_select" on older torch): the training step moves its batch
with `move_to_device(...)`, but `validate_average_rank` builds `biencoder_input` with
`create_biencoder_input(...)` and feeds its `question_ids` / `context_ids` to the cuda biencoder as they
are. The fix moves the named tuple's tensors to `cfg.device` before the forward. Stand-ins: a tiny
biencoder (two embedding encoders), the BiEncoderBatch namedtuple and a trainer reduced to this loop.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import collections
import torch
from torch import nn

BiEncoderBatch = collections.namedtuple("BiEncoderBatch",
    ["question_ids", "question_segments", "context_ids", "ctx_segments", "is_positive", "hard_negatives"])

def move_to_device(sample, device):
    return {k: (v.to(device) if torch.is_tensor(v) else v) for k, v in sample.items()}

class Encoder(nn.Module):
    def __init__(self, vocab=30522, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
    def forward(self, ids, segments, attn_mask):
        return self.proj(self.emb(ids)[:, 0])

class BiEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.question_model = Encoder()
        self.ctx_model = Encoder()
    def forward(self, q_ids, q_segments, q_attn_mask, ctx_ids, ctx_segments, ctx_attn_mask):
        return self.question_model(q_ids, q_segments, q_attn_mask), self.ctx_model(ctx_ids, ctx_segments, ctx_attn_mask)

    @staticmethod
    def create_biencoder_input(samples, seq_len=16):
        q = torch.randint(1, 30000, (len(samples), seq_len))
        ctx = torch.randint(1, 30000, (2 * len(samples), seq_len))
        return BiEncoderBatch(q, torch.zeros_like(q), ctx, torch.zeros_like(ctx),
                              list(range(0, 2 * len(samples), 2)), [])

class Cfg:
    device = "cuda:0"

class BiEncoderTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.biencoder = BiEncoder().to(cfg.device)
        self.dev_samples = ["q%d" % i for i in range(4)]

    def validate_average_rank(self):
        self.biencoder.eval()
        biencoder_input = BiEncoder.create_biencoder_input(self.dev_samples)
        with torch.no_grad():
            q_dense, ctx_dense = self.biencoder(
                biencoder_input.question_ids, biencoder_input.question_segments, None,
                biencoder_input.context_ids, biencoder_input.ctx_segments, None)
        scores = q_dense @ ctx_dense.t()
        return scores.argsort(dim=1, descending=True)

trainer = BiEncoderTrainer(Cfg())
'''
CELL = '''
ranks = trainer.validate_average_rank()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["biencoder_input"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("biencoder_input = BiEncoder.create_biencoder_input(self.dev_samples)",
                  "biencoder_input = BiEncoderBatch(**move_to_device(BiEncoder.create_biencoder_input(self.dev_samples)._asdict(), self.cfg.device))")
CLEAN = False
