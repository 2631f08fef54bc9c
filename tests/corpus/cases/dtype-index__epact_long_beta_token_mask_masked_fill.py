"""EPACT pre-training batch converter: the beta-chain token mask is turned into int64 before `masked_fill_`.

Source: https://github.com/zhangyumeng1sjtu/EPACT/issues/4
Pre-training the paired CDR3 language model failed in `tokenizer.mask_token` at
`prob_matrix.masked_fill_(beta_token_mask, value=beta_mask_prob)` with "masked_fill_ only supports
boolean masks, but got mask with dtype long int": `PairedCDR3BatchConverter.__call__` passes
`beta_token_mask=(chain_token_mask == 2).long()`, turning the boolean comparison into int64. Stand-in:
the batch converter and the tokenizer's BERT-style masking. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch

class Tokenizer:
    def __init__(self, vocab_size=25, mask_idx=24, pad_idx=0):
        self.vocab_size, self.mask_idx, self.pad_idx = vocab_size, mask_idx, pad_idx

    def mask_token(self, tokens, mask_prob, beta_token_mask=None, beta_mask_prob=None):
        labels = tokens.clone()
        prob_matrix = torch.full(tokens.shape, mask_prob)
        if beta_token_mask is not None:
            prob_matrix.masked_fill_(beta_token_mask, value=beta_mask_prob)
        prob_matrix.masked_fill_(tokens == self.pad_idx, value=0.0)
        masked = torch.bernoulli(prob_matrix).bool()
        labels[~masked] = -100
        tokens = tokens.masked_fill(masked, self.mask_idx)
        return tokens, labels

class PairedCDR3BatchConverter:
    def __init__(self, tokenizer, mask_prob=0.15, beta_mask_prob=0.25):
        self.tokenizer, self.mask_prob, self.beta_mask_prob = tokenizer, mask_prob, beta_mask_prob

    def __call__(self, raw_batch):
        tokens, chain_token_mask = raw_batch
        tokens, labels = self.tokenizer.mask_token(tokens, self.mask_prob,
                                                   beta_token_mask=(chain_token_mask == 2).long(),
                                                   beta_mask_prob=self.beta_mask_prob)
        return tokens, labels

batch_converter = PairedCDR3BatchConverter(Tokenizer())
tokens = torch.randint(1, 21, (4, 30))
chain_token_mask = torch.cat([torch.ones(4, 15, dtype=torch.long), 2 * torch.ones(4, 15, dtype=torch.long)], 1)
raw_batch = (tokens, chain_token_mask)
'''
CELL = '''
masked_tokens, labels = batch_converter(raw_batch)
'''
EXPECT_ERROR = "masked_fill_ only supports boolean masks"
CULPRITS = ["beta_token_mask"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("beta_token_mask=(chain_token_mask == 2).long(),", "beta_token_mask=(chain_token_mask == 2),")
CLEAN = False
