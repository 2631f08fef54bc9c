"""open_clip CoCa `generate` on the GPU: the EOS stopping criterion keeps its token tensor on the CPU.

Source: https://github.com/mlfoundations/open_clip/pull/905
After #898 was fixed for the CPU, a user reported that CoCa captioning with "everything on the GPU"
still failed; PR #905 ("Fix #898, stopping criteria update ... Fix device mismatch for stopping
criteria token") builds the stopping criteria's EOS token on the generation device. transformers'
`EosTokenCriteria` stores `torch.tensor(eos_token_id)` and checks `torch.isin(input_ids[:, -1],
self.eos_token_id)`; CoCa built it itself, so the token stayed on the CPU. Stand-in: the criterion
class and a small CoCa-shaped captioner with a greedy `generate`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class MaxLengthCriteria:
    def __init__(self, max_length):
        self.max_length = max_length
    def __call__(self, input_ids, scores):
        return torch.full((input_ids.shape[0],), input_ids.shape[-1] >= self.max_length, dtype=torch.bool, device=input_ids.device)

class EosTokenCriteria:
    def __init__(self, eos_token_id):
        if not isinstance(eos_token_id, torch.Tensor):
            eos_token_id = torch.tensor(eos_token_id)
        self.eos_token_id = eos_token_id
    def __call__(self, input_ids, scores):
        # transformers: isin_mps_friendly(input_ids[:, -1], self.eos_token_id)
        return (input_ids.select(1, -1).unsqueeze(-1) == self.eos_token_id.view(1, -1)).any(-1)

class StoppingCriteriaList(list):
    def __call__(self, input_ids, scores):
        is_done = torch.full((input_ids.shape[0],), False, device=input_ids.device, dtype=torch.bool)
        for criteria in self:
            is_done = is_done | criteria(input_ids, scores)
        return is_done

class CoCa(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.visual = nn.Linear(3 * 8 * 8, d)   # stand-in for the ViT patch embedding
        self.token_embedding = nn.Embedding(vocab, d)
        self.text_decoder = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    @torch.no_grad()
    def generate(self, image, seq_len=8, sot_token_id=1, eos_token_id=2):
        device = image.device
        patches = image.reshape(image.shape[0], 3 * 8 * 8, -1).transpose(1, 2)
        image_embs = self.visual(patches).mean(1, keepdim=True)
        stopping_criteria = StoppingCriteriaList([MaxLengthCriteria(max_length=seq_len), EosTokenCriteria(eos_token_id)])
        out = torch.full((image.shape[0], 1), sot_token_id, dtype=torch.long, device=device)
        unfinished = torch.ones(image.shape[0], dtype=torch.bool, device=device)
        for _ in range(seq_len - 1):
            h = torch.tanh(self.text_decoder(self.token_embedding(out)) + image_embs)
            out = torch.cat([out, self.lm_head(h.select(1, -1)).argmax(-1, keepdim=True)], dim=-1)
            unfinished = unfinished & stopping_criteria(out, None).logical_not()   # open_clip: `if stopping_criteria(out, None).all(): break`
        return out

model = CoCa().to("cuda:0").eval()
im = torch.rand(1, 3, 32, 32).to("cuda:0")     # transform(Image.open(...)).unsqueeze(0).cuda()
'''
CELL = '''
generated = model.generate(im)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["stopping_criteria"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("EosTokenCriteria(eos_token_id)])",
                  "EosTokenCriteria(torch.tensor(eos_token_id).to(device))])")
CLEAN = False
