"""BLIP captioning on cuda:1: generate() builds the attention mask and prompt ids on the CPU, then moves them.

Source: https://github.com/salesforce/BLIP/blob/main/models/blip.py
`BLIP_Decoder.generate` makes `image_atts = torch.ones(image_embeds.size()[:-1], dtype=torch.long)`
and tokenizes the prompt on the CPU, and moves both with `.to(image.device)` before decoding; the
demo puts the model and the image on the chosen device. Run on the second GPU, captioning works.
Stand-in: the ViT/BERT-decoder as toy modules and a character tokenizer; greedy decoding in place
of beam search; the in-place BOS write is done with a cat (the simulation cannot index_put a
scalar).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Tokenizer:
    bos_token_id, sep_token_id, pad_token_id = 1, 2, 0
    def __call__(self, prompts, return_tensors="pt"):
        ids = [[101] + [3 + ord(c) % 90 for c in p] + [102] for p in prompts]
        class Out: pass
        out = Out()
        out.input_ids = torch.tensor(ids)
        return out

class BertLMHeadModel(nn.Module):
    def __init__(self, vocab=128, width=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.cross = nn.Linear(width, width)
        self.cls = nn.Linear(width, vocab)

    def generate(self, input_ids, max_length, encoder_hidden_states, encoder_attention_mask, **kw):
        for _ in range(3):
            ctx = (encoder_hidden_states * encoder_attention_mask[..., None]).mean(1, keepdim=True)
            h = self.embed(input_ids) + self.cross(ctx)
            next_token = self.cls(h[:, -1]).argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=1)
        return input_ids

class BLIP_Decoder(nn.Module):
    def __init__(self, prompt="a picture of "):
        super().__init__()
        self.visual_encoder = nn.Sequential(nn.Conv2d(3, 32, 8, stride=8), nn.Flatten(2))
        self.tokenizer = Tokenizer()
        self.text_decoder = BertLMHeadModel()
        self.prompt = prompt

    def generate(self, image, sample=False, num_beams=3, max_length=30, min_length=10, top_p=0.9, repetition_penalty=1.0):
        image_embeds = self.visual_encoder(image).transpose(1, 2)
        if not sample:
            image_embeds = image_embeds.repeat_interleave(num_beams, dim=0)
        image_atts = torch.ones(image_embeds.size()[:-1], dtype=torch.long).to(image.device)
        model_kwargs = {"encoder_hidden_states": image_embeds, "encoder_attention_mask": image_atts}
        prompt = [self.prompt] * image.size(0)
        input_ids = self.tokenizer(prompt, return_tensors="pt").input_ids.to(image.device)
        # input_ids[:, 0] = self.tokenizer.bos_token_id (a scalar index_put, rebuilt with cat here)
        input_ids = torch.cat([torch.full_like(input_ids[:, :1], self.tokenizer.bos_token_id), input_ids[:, 1:]], dim=1)
        input_ids = input_ids[:, :-1]
        if not sample:
            input_ids = input_ids.repeat_interleave(num_beams, dim=0)
        return self.text_decoder.generate(input_ids=input_ids, max_length=max_length, **model_kwargs)

device = torch.device("cuda:1")
model = BLIP_Decoder()
model.eval()
model = model.to(device)
# load_demo_image(image_size=384, device=device): transform(raw_image).unsqueeze(0).to(device)
image = torch.randn(1, 3, 32, 32).to(device)
'''
CELL = '''
with torch.no_grad():
    caption = model.generate(image, sample=False, num_beams=3, max_length=20, min_length=5)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
