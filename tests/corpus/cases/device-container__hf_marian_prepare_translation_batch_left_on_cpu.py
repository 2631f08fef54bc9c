"""MarianMT on the GPU: the batch from `tokenizer.prepare_translation_batch` stays on the CPU and `model.generate(**batch)` fails.

Source: https://github.com/huggingface/transformers/issues/5111
The user loads `MarianMTModel.from_pretrained('Helsinki-NLP/opus-mt-fr-en').cuda()`, checks `model.device`
(cuda:0), builds `batch = tokenizer.prepare_translation_batch(list_of_sents)` as in the docs and calls
`model.generate(**batch, ...)`: "Expected object of device type cuda but got device type cpu for argument #3
'index' in call to _th_index_select". The tokenizer's BatchEncoding is created on the CPU; it must be moved
with `batch.to('cuda')` (a BatchEncoding method). Stand-ins: a BatchEncoding (dict with `.to`), the tokenizer's
batch builder and a tiny Marian encoder-decoder with a greedy generate.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class BatchEncoding(dict):
    def __getattr__(self, item):
        return self[item]
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class MarianTokenizer:
    pad_token_id = 58100
    def prepare_translation_batch(self, src_texts, return_tensors="pt"):
        ids = [[(sum(map(ord, w)) % 58000) + 1 for w in t.split()] + [0] for t in src_texts]
        n = max(len(x) for x in ids)
        return BatchEncoding(input_ids=torch.tensor([x + [self.pad_token_id] * (n - len(x)) for x in ids]),
                             attention_mask=torch.tensor([[1] * len(x) + [0] * (n - len(x)) for x in ids]))

class MarianMTModel(nn.Module):
    def __init__(self, vocab_size=58101, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.Linear(d_model, d_model)
        self.decoder = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    @property
    def device(self):
        return self.shared.weight.device

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, num_beams=1, early_stopping=True, no_repeat_ngram_size=3):
        enc = torch.tanh(self.encoder(self.shared(input_ids))) * attention_mask.unsqueeze(-1)
        enc = enc.sum(1, keepdim=True) / attention_mask.sum(1, keepdim=True).unsqueeze(-1)
        out = torch.full((input_ids.size(0), 1), 58100, dtype=torch.long, device=input_ids.device)
        for _ in range(4):
            h = torch.tanh(self.decoder(self.shared(out) + enc))
            out = torch.cat([out, self.lm_head(h[:, -1]).argmax(-1, keepdim=True)], dim=-1)
        return out

model_name = 'Helsinki-NLP/opus-mt-fr-en'
model = MarianMTModel().to("cuda:0")            # from_pretrained(model_name).cuda()
tokenizer = MarianTokenizer()
list_of_sents = ["Le chat est sur la table.", "Je voudrais un café, s'il vous plaît."]
batch = tokenizer.prepare_translation_batch(list_of_sents)
'''
CELL = '''
gen = model.generate(**batch, num_beams=1, early_stopping=True, no_repeat_ngram_size=3)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = batch.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
