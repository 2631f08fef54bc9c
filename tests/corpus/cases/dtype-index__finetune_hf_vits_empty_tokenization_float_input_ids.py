"""finetune-hf-vits (MMS-TTS) validation sample: text the tokenizer cannot encode becomes an empty *float* `input_ids` tensor.

Source: https://github.com/ylacombe/finetune-hf-vits/issues/27
During fine-tuning, `full_generation = model(**full_generation_sample.to(model.device), speaker_id=speaker_id)`
failed in the text encoder's `self.embed_tokens(input_ids)` with "Expected tensor for argument #1
'indices' to have one of the following scalar types: Long, Int; but got torch.cuda.FloatTensor". The
full-generation text was in a script the MMS tokenizer does not cover (it needs uroman first), so
every character was dropped and `torch.tensor([[]])` gave a (1, 0) float32 tensor; a user in #13 who
cast it to int then saw the empty (1, 0, 192) hidden states. Stand-in: a character-vocab tokenizer,
a uroman table and the VITS text encoder; CPU only.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import math
import torch
from torch import nn

class VitsTokenizer:
    def __init__(self, vocab):
        self.vocab = vocab

    def __call__(self, text, return_tensors="pt"):
        ids = [self.vocab[c] for c in text.lower() if c in self.vocab]
        return {"input_ids": torch.tensor([ids]), "attention_mask": torch.tensor([[1] * len(ids)])}

def uromanize(text):
    table = {"न": "na", "म": "ma", "स": "sa", "त": "ta", "े": "e", "ो": "o", " ": " "}
    return "".join(table.get(c, "") for c in text)

class VitsTextEncoder(nn.Module):
    def __init__(self, vocab_size=40, hidden_size=192):
        super().__init__()
        self.hidden_size = hidden_size
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.project = nn.Linear(hidden_size, 2 * hidden_size)

    def forward(self, input_ids, attention_mask=None, speaker_id=None):
        hidden_states = self.embed_tokens(input_ids) * math.sqrt(self.hidden_size)
        return self.project(hidden_states)

chars = "_ abcdefghijklmnopqrstuvwxyz'-"
tokenizer = VitsTokenizer({c: i for i, c in enumerate(chars)})     # MMS tokenizer with is_uroman=True
model = VitsTextEncoder(vocab_size=len(chars))
full_generation_text = "नमस्ते"                                     # data_args.full_generation_sample_text
full_generation_sample = tokenizer(full_generation_text, return_tensors="pt")
speaker_id = None
'''
CELL = '''
with torch.no_grad():
    full_generation = model(**full_generation_sample, speaker_id=speaker_id)
'''
EXPECT_ERROR = "Expected tensor for argument #1 'indices' to have one of the following scalar types"
CULPRITS = ["full_generation_sample['input_ids']"]
FIX = "namespace"
REFERENCE_FIX = '''
full_generation_sample = tokenizer(uromanize(full_generation_text), return_tensors="pt")
'''
REFERENCE_EDIT = None
CLEAN = False
