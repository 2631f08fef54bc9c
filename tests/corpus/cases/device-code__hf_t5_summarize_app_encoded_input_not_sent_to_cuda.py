"""Flask summarization app: `t5_summarize` encodes the text on the CPU and calls generate() on the GPU model.

Source: https://github.com/renatoviolin/Bart_T5-summarization/issues/2
Running the app's T5 (and BART) summarizer with the models moved to the GPU (`t5_model.to(device)` under
`__main__`) fails with "Expected object of device type cuda but got device type cpu for argument #3 'index' in
call to _th_index_select": `t5_summarize` built `input_tokenized` with `t5_tokenizer.encode(...,
return_tensors="pt")` and prepended the "summarize:" task ids, but never sent them to `device`. The author fixed
app.py by adding `.to(device)`. Stand-ins: a word-hash tokenizer, a tiny T5ForConditionalGeneration with a
greedy generate() (encoder embedding lookup first, as in transformers).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class T5Tokenizer:
    def encode(self, text, return_tensors="pt"):
        ids = [(sum(map(ord, w)) % 31000) + 100 for w in text.split()] + [1]
        return torch.tensor([ids])

class T5ForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size=32128, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.Linear(d_model, d_model)
        self.decoder = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    @torch.no_grad()
    def generate(self, input_ids, num_beams=4, no_repeat_ngram_size=3, length_penalty=2.0,
                 min_length=30, max_length=50, early_stopping=True):
        encoder_hidden = torch.tanh(self.encoder(self.shared(input_ids))).mean(dim=1, keepdim=True)
        decoder_input_ids = torch.zeros(input_ids.size(0), 1, dtype=torch.long, device=input_ids.device)
        for _ in range(4):
            hidden = torch.tanh(self.decoder(self.shared(decoder_input_ids) + encoder_hidden))
            next_token = self.lm_head(hidden[:, -1]).argmax(dim=-1, keepdim=True)
            decoder_input_ids = torch.cat([decoder_input_ids, next_token], dim=-1)
        return decoder_input_ids

t5_model = T5ForConditionalGeneration()          # from_pretrained(T5_PATH)
t5_tokenizer = T5Tokenizer()
device = torch.device('cuda:0')

def t5_summarize(input_text, num_beams=4, num_words=50):
    input_text = str(input_text).replace('\\n', '')
    input_text = ' '.join(input_text.split())
    input_tokenized = t5_tokenizer.encode(input_text, return_tensors="pt")
    summary_task = torch.tensor([[21603, 10]])
    input_tokenized = torch.cat([summary_task, input_tokenized], dim=-1)
    summary_ids = t5_model.generate(input_tokenized,
                                    num_beams=int(num_beams),
                                    no_repeat_ngram_size=3,
                                    length_penalty=2.0,
                                    min_length=30,
                                    max_length=int(num_words),
                                    early_stopping=True)
    return summary_ids

t5_model.to(device)
t5_model.eval()
sentence = "The tower is 324 metres tall, about the same height as an 81-storey building."
'''
CELL = '''
output = t5_summarize(sentence, 4, 50)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_tokenized"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input_tokenized = torch.cat([summary_task, input_tokenized], dim=-1)",
                  "input_tokenized = torch.cat([summary_task, input_tokenized], dim=-1).to(device)")
CLEAN = False
