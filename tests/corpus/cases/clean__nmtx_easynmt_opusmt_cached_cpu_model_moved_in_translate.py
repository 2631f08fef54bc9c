"""EasyNMT's OPUS-MT backend keeps its loaded Marian models on the CPU and moves the model and every input to the requested device inside `translate_sentences`.

Source: https://github.com/UKPLab/EasyNMT/blob/main/easynmt/models/OpusMT.py
Look-alike: `translator.models['Helsinki-NLP/opus-mt-en-de']['model']` sits on the CPU in the
namespace (the model cache loads without a device) while the user asks for `device="cuda:0"`; the
method itself runs `model.to(device)` and `inputs[key] = inputs[key].to(device)` for each key of the
tokenizer's batch before `model.generate`, so the call is consistent. Stand-ins: a MarianTokenizer
with `prepare_seq2seq_batch` (ids from a hash, `decode` reporting the length only) and a tiny Marian
model with a greedy `generate`; the cache is pre-filled as `load_model` leaves it.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import time
import torch
import torch.nn as nn
from typing import List

class MarianTokenizer:
    pad_token_id = 58100
    def prepare_seq2seq_batch(self, src_texts, max_length=None, return_tensors="pt"):
        ids = [[(sum(map(ord, w)) % 500) + 2 for w in t.split()] + [0] for t in src_texts]
        n = max(len(x) for x in ids)
        return {"input_ids": torch.tensor([x + [1] * (n - len(x)) for x in ids]),
                "attention_mask": torch.tensor([[1] * len(x) + [0] * (n - len(x)) for x in ids])}
    def decode(self, t, skip_special_tokens=True):
        return "<%d tokens>" % t.shape[-1]

class MarianMTModel(nn.Module):
    def __init__(self, vocab_size=512, d_model=16):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, num_beams=1, max_length=4):
        enc = torch.tanh(self.encoder(self.shared(input_ids))) * attention_mask.unsqueeze(-1)
        enc = enc.sum(1, keepdim=True)
        out = torch.full((input_ids.size(0), 1), 1, dtype=torch.long, device=input_ids.device)
        for _ in range(max_length):
            h = self.shared(out[:, -1:]) + enc
            out = torch.cat([out, self.lm_head(h[:, -1]).argmax(-1, keepdim=True)], dim=-1)
        return out

class OpusMT:
    def __init__(self, max_loaded_models: int = 10):
        self.models = {}
        self.max_loaded_models = max_loaded_models
        self.max_length = None

    def load_model(self, model_name):
        if model_name in self.models:
            self.models[model_name]['last_loaded'] = time.time()
            return self.models[model_name]['tokenizer'], self.models[model_name]['model']
        tokenizer = MarianTokenizer()                 # MarianTokenizer.from_pretrained(model_name)
        model = MarianMTModel()                       # MarianMTModel.from_pretrained(model_name)
        model.eval()
        self.models[model_name] = {'tokenizer': tokenizer, 'model': model, 'last_loaded': time.time()}
        return tokenizer, model

    def translate_sentences(self, sentences: List[str], source_lang: str, target_lang: str, device: str,
                            beam_size: int = 5, **kwargs):
        model_name = 'Helsinki-NLP/opus-mt-{}-{}'.format(source_lang, target_lang)
        tokenizer, model = self.load_model(model_name)
        model.to(device)
        inputs = tokenizer.prepare_seq2seq_batch(sentences, max_length=self.max_length, return_tensors="pt")
        for key in inputs:
            inputs[key] = inputs[key].to(device)
        with torch.no_grad():
            translated = model.generate(**inputs, num_beams=beam_size, **kwargs)
            output = [tokenizer.decode(t, skip_special_tokens=True) for t in translated]
        return output

translator = OpusMT()
translator.load_model('Helsinki-NLP/opus-mt-en-de')        # cached on the CPU
sentences = ["This is a sentence we want to translate to German", "Hello world"]
'''
CELL = '''
translations = translator.translate_sentences(sentences, source_lang='en', target_lang='de',
                                              device='cuda:0', beam_size=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
