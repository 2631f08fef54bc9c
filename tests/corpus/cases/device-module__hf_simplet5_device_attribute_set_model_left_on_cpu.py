"""simpleT5: setting `model.device = torch.device("cuda")` before `from_pretrained` leaves the T5 weights on the CPU.

Source: https://github.com/Shivanandroy/simpleT5/issues/55
The user wrote `model = SimpleT5(); model.device = torch.device("cuda"); model.from_pretrained("t5", "t5-large")`
and `model.predict("summarize: " + text)` failed in T5's `embed_tokens` with "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu". `predict` sends the encoded ids to `self.device`,
but only `load_model(..., use_gpu=True)` moves `self.model`; `from_pretrained` leaves it on the CPU, and setting
the attribute moves nothing. Stand-in: SimpleT5's from_pretrained/predict over a tiny T5 with a greedy generate.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class T5Tokenizer:
    def encode(self, text, return_tensors="pt", add_special_tokens=True):
        return torch.tensor([[(sum(map(ord, w)) % 31000) + 100 for w in text.split()] + [1]])
    def decode(self, ids, skip_special_tokens=True, clean_up_tokenization_spaces=True):
        return " ".join(str(i) for i in ids.tolist())

class T5ForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size=32128, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.Linear(d_model, d_model)
        self.decoder = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    @torch.no_grad()
    def generate(self, input_ids, num_beams=2, max_length=512, repetition_penalty=2.5,
                 length_penalty=1.0, early_stopping=True, top_p=0.95, top_k=50, num_return_sequences=1):
        encoder_hidden = torch.tanh(self.encoder(self.shared(input_ids))).mean(dim=1, keepdim=True)
        decoder_input_ids = torch.zeros(input_ids.size(0), 1, dtype=torch.long, device=input_ids.device)
        for _ in range(4):
            hidden = torch.tanh(self.decoder(self.shared(decoder_input_ids) + encoder_hidden))
            next_token = self.lm_head(hidden[:, -1]).argmax(dim=-1, keepdim=True)
            decoder_input_ids = torch.cat([decoder_input_ids, next_token], dim=-1)
        return decoder_input_ids

class SimpleT5:
    def __init__(self):
        pass

    def from_pretrained(self, model_type="t5", model_name="t5-base"):
        if model_type == "t5":
            self.tokenizer = T5Tokenizer()
            self.model = T5ForConditionalGeneration()

    def load_model(self, model_type="t5", model_dir="outputs", use_gpu=False):
        self.from_pretrained(model_type, model_dir)
        self.device = torch.device("cuda:0") if use_gpu else torch.device("cpu")
        self.model = self.model.to(self.device)

    def predict(self, source_text, max_length=512, num_return_sequences=1, num_beams=2, top_k=50,
                top_p=0.95, do_sample=True, repetition_penalty=2.5, length_penalty=1.0, early_stopping=True):
        input_ids = self.tokenizer.encode(source_text, return_tensors="pt", add_special_tokens=True)
        input_ids = input_ids.to(self.device)
        generated_ids = self.model.generate(input_ids=input_ids, num_beams=num_beams, max_length=max_length,
                                            repetition_penalty=repetition_penalty, length_penalty=length_penalty,
                                            early_stopping=early_stopping, top_p=top_p, top_k=top_k,
                                            num_return_sequences=num_return_sequences)
        return generated_ids

text = "The tower is 324 metres tall, about the same height as an 81-storey building."
model = SimpleT5()
model.device = torch.device("cuda:0")
model.from_pretrained("t5", "t5-large")
'''
CELL = '''
summary = model.predict("summarize: " + text)[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model = model.model.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
