"""alphafold2-pytorch MSA masked-language-model noising on a GPU: the random replacement tokens are drawn on the CPU.

Source: https://github.com/lucidrains/alphafold2/pull/96
With the MSA MLM objective enabled (`Alphafold2(..., mlm_mask_prob=0.15)` in training mode), `MLM.noise`
builds its masks on the MSA's device but draws `random_tokens = torch.randint(1,
constants.NUM_AMINO_ACIDS, seq.shape)` without a device, then combines it with the GPU masks and
sequence (`& (random_tokens != token_id)`, `torch.where(...)`). The merged PR ("Make sure random_tokens
is on correct device") appends `.to(seq.device)`.
Stand-ins: `MLM.noise` as in the library, `get_mask_subset_with_prob` reduced to a Bernoulli mask on
the mask's device (its top-k/scatter bookkeeping needs slicing the simulator cannot do), einops'
`rearrange` written as `flatten`/`unflatten`, and a small
Alphafold2 wrapper whose forward noises the MSA and embeds it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class constants:
    NUM_AMINO_ACIDS = 21

def get_mask_subset_with_prob(mask, prob):
    rand = torch.rand(mask.shape, device=mask.device)
    return mask & (rand < prob)

class MLM(nn.Module):
    def __init__(self, dim, num_tokens, mask_id, mask_prob=0.15, random_replace_token_prob=0.1,
                 keep_token_same_prob=0.1, exclude_token_ids=(0,)):
        super().__init__()
        self.to_logits = nn.Linear(dim, num_tokens)
        self.mask_id = mask_id
        self.mask_prob = mask_prob
        self.exclude_token_ids = exclude_token_ids
        self.keep_token_same_prob = keep_token_same_prob
        self.random_replace_token_prob = random_replace_token_prob

    def noise(self, seq, mask):
        num_msa = seq.shape[1]
        seq = seq.flatten(0, 1)                      # rearrange 'b n ... -> (b n) ...'
        mask = mask.flatten(0, 1)

        excluded_tokens_mask = mask
        for token_id in self.exclude_token_ids:
            excluded_tokens_mask = excluded_tokens_mask & (seq != token_id)

        mlm_mask = get_mask_subset_with_prob(excluded_tokens_mask, self.mask_prob)
        seq = seq.masked_fill(mlm_mask, self.mask_id)

        # generate random tokens
        random_replace_token_prob_mask = get_mask_subset_with_prob(mlm_mask, (1 - self.keep_token_same_prob) * self.random_replace_token_prob)

        random_tokens = torch.randint(1, constants.NUM_AMINO_ACIDS, seq.shape)

        for token_id in self.exclude_token_ids:
            random_replace_token_prob_mask = random_replace_token_prob_mask & (random_tokens != token_id)

        # noise sequence
        noised_seq = torch.where(random_replace_token_prob_mask, random_tokens, seq)
        noised_seq = noised_seq.unflatten(0, (-1, num_msa))   # rearrange '(b n) ... -> b n ...'
        mlm_mask = mlm_mask.unflatten(0, (-1, num_msa))
        return noised_seq, mlm_mask

class Alphafold2(nn.Module):
    def __init__(self, dim=32, num_tokens=constants.NUM_AMINO_ACIDS + 2, mlm_mask_prob=0.15):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.mlm = MLM(dim=dim, num_tokens=num_tokens, mask_id=num_tokens - 1, mask_prob=mlm_mask_prob)

    def forward(self, seq, msa, mask=None, msa_mask=None):
        if self.training:
            msa, replaced_msa_mask = self.mlm.noise(msa, msa_mask)
        m = self.token_emb(msa)
        x = self.token_emb(seq)
        return x.unsqueeze(1) + m

device = torch.device("cuda:0")
model = Alphafold2().to(device)
model.train()

seq = torch.randint(1, 21, (1, 64)).to(device)
msa = torch.randint(1, 21, (1, 5, 64)).to(device)
mask = torch.ones_like(seq).bool()
msa_mask = torch.ones_like(msa).bool()
'''
CELL = '''
with torch.no_grad():
    out = model(seq, msa, mask=mask, msa_mask=msa_mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.mlm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("random_tokens = torch.randint(1, constants.NUM_AMINO_ACIDS, seq.shape)",
                  "random_tokens = torch.randint(1, constants.NUM_AMINO_ACIDS, seq.shape).to(seq.device)")
CLEAN = False
