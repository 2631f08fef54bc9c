"""Nougat 0.1.6 on a GPU: `NougatModel.inference` casts the page batch to bfloat16 but no longer moves it to the model's CUDA device.

Source: https://github.com/facebookresearch/nougat/issues/79
"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and
cuda:0! (when checking argument for argument weight in method wrapper_CUDA___slow_conv2d_forward)"
right after a pip reinstall. `predict.py` puts the bf16 model on "cuda" and passes the CPU batches of
its DataLoader to `model.inference(image_tensors=sample)`; a refactor of `inference` (commit 7000085)
dropped the `image_tensors.to(self.device)` for CUDA. The maintainer: "my mistake", fixed in 0.1.7
(c02b772) by restoring `if self.device.type == "cuda": image_tensors = image_tensors.to(self.device)`.
Stand-in: `SwinEncoder` reduced to patch embedding + one block, the MBart decoder to an embedding,
one cross-attention and a head with a fixed-length greedy loop, no tokenizer or repetition check;
the pages are random tensors from `prepare_input`, and the DataLoader is a list holding one CPU batch.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class PatchEmbed(nn.Module):
    def __init__(self, in_chans=3, embed_dim=32, patch_size=4):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = nn.LayerNorm(embed_dim)
    def forward(self, x):
        return self.norm(self.proj(x).flatten(2).transpose(1, 2))

class SwinTransformer(nn.Module):
    def __init__(self, embed_dim=32):
        super().__init__()
        self.patch_embed = PatchEmbed(embed_dim=embed_dim)
        self.pos_drop = nn.Dropout(0.0)
        self.layers = nn.Sequential(nn.LayerNorm(embed_dim), nn.Linear(embed_dim, embed_dim), nn.GELU())

class SwinEncoder(nn.Module):
    def __init__(self, input_size=(64, 48)):
        super().__init__()
        self.input_size = input_size
        self.model = SwinTransformer()
    def forward(self, x):
        x = self.model.patch_embed(x)
        x = self.model.pos_drop(x)
        x = self.model.layers(x)
        return x
    def prepare_input(self, img, random_padding=False):
        return torch.rand(3, *self.input_size)              # crop_margin / resize / normalize of a page

class BARTDecoder(nn.Module):
    def __init__(self, vocab=50, d_model=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d_model)
        self.cross_attn = nn.MultiheadAttention(d_model, 4, batch_first=True)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)
    def generate(self, encoder_hidden_states, bos_token_id=0, max_length=5):
        ids = torch.full((encoder_hidden_states.shape[0], 1), bos_token_id, dtype=torch.long,
                         device=encoder_hidden_states.device)
        for _ in range(max_length):
            h = self.embed_tokens(ids)
            h = h + self.cross_attn(h, encoder_hidden_states, encoder_hidden_states, need_weights=False)[0]
            ids = torch.cat([ids, self.lm_head(h[:, -1:]).argmax(-1)], dim=1)
        return ids

class NougatModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = SwinEncoder()
        self.decoder = BARTDecoder()

    @property
    def device(self):
        return next(self.parameters()).device

    def inference(self, image=None, image_tensors=None, return_attentions=False, early_stopping=True):
        output = {"predictions": list(), "sequences": list(), "repeats": list(), "repetitions": list()}
        if image_tensors is None:
            image_tensors = self.encoder.prepare_input(image).unsqueeze(0)
        image_tensors = image_tensors.to(torch.bfloat16)
        last_hidden_state = self.encoder(image_tensors)
        output["sequences"] = self.decoder.generate(last_hidden_state)
        return output

model = NougatModel().to(torch.bfloat16)          # NougatModel.from_pretrained(args.checkpoint).to(torch.bfloat16)
model.to("cuda:0")                                # if torch.cuda.is_available(): model.to("cuda")
model.eval()

pages = [model.encoder.prepare_input(None) for _ in range(3)]   # LazyDataset(pdf, prepare_input)
dataloader = [(torch.stack(pages), [False, False, True])]      # DataLoader(ConcatDataset(datasets), batch_size=3): CPU batches
'''
CELL = '''
predictions = []
for i, (sample, is_last_page) in enumerate(dataloader):
    model_output = model.inference(image_tensors=sample, early_stopping=True)
    predictions.append(model_output["sequences"])
'''
EXPECT_ERROR = ("Input type", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        image_tensors = image_tensors.to(torch.bfloat16)\n",
                  "        image_tensors = image_tensors.to(torch.bfloat16)\n"
                  '        if self.device.type == "cuda":\n'
                  "            image_tensors = image_tensors.to(self.device)\n")
CLEAN = False
