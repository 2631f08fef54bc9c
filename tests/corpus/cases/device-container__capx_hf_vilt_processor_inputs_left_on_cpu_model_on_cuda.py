"""Bare `ViltModel` moved to CUDA, but the `ViltProcessor` batch (`input_ids`, `pixel_values`, ...) stays on the CPU.

Source: https://github.com/huggingface/transformers/issues/16873
"The bare ViLT Model not working with CUDA?": the user moves `vilt_model.to(device)` to extract
`pooler_output` for image+text pairs and calls `vilt_model(**inputs)` on the processor's output,
getting "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu! (when checking argument for argument index in method wrapper__index_select)". The user closed
it: "I was assuming ViltProcessor will do it for me" -- the `BatchFeature` has to be moved with
`.to(device)`. Stand-in: a `BatchFeature`-like dict with `.to()`, a processor that tokenizes into
ids and returns CPU tensors, and a tiny ViltModel (text and patch embeddings, one transformer
layer as an MLP, pooler) with the library's argument names; `device` is "cuda:0" for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

# --- stand-in for transformers' BatchFeature / ViltProcessor / ViltModel ---------------------
class BatchFeature(dict):
    def __getattr__(self, item):
        try:
            return self[item]
        except KeyError:
            raise AttributeError(item)
    def to(self, device):
        return BatchFeature({k: v.to(device) for k, v in self.items()})

class ViltProcessor:
    def __init__(self, vocab=("[PAD]", "[CLS]", "[SEP]", "hello", "world"), image_size=64):
        self.vocab = {w: i for i, w in enumerate(vocab)}
        self.image_size = image_size
    @classmethod
    def from_pretrained(cls, name):
        return cls()
    def __call__(self, images, text, return_tensors="pt"):
        ids = [1] + [self.vocab.get(w, 0) for w in text.split()] + [2]
        input_ids = torch.tensor([ids])
        pixel_values = torch.rand(1, 3, self.image_size, self.image_size)   # resize + rescale + normalize
        return BatchFeature(input_ids=input_ids, token_type_ids=torch.zeros_like(input_ids),
                            attention_mask=torch.ones_like(input_ids), pixel_values=pixel_values,
                            pixel_mask=torch.ones(1, self.image_size, self.image_size, dtype=torch.long))

class ViltModel(nn.Module):
    def __init__(self, vocab_size=30, hidden_size=32, patch_size=16, max_text_len=40):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.position_embeddings = nn.Embedding(max_text_len, hidden_size)
        self.token_type_embeddings = nn.Embedding(2, hidden_size)
        self.patch_embeddings = nn.Conv2d(3, hidden_size, patch_size, stride=patch_size)
        self.modality_type_embeddings = nn.Embedding(2, hidden_size)
        self.layer = nn.Sequential(nn.Linear(hidden_size, 64), nn.GELU(), nn.Linear(64, hidden_size))   # the ViltEncoder
        self.layernorm = nn.LayerNorm(hidden_size)
        self.pooler = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.Tanh())
    @classmethod
    def from_pretrained(cls, name):
        return cls()
    def forward(self, input_ids=None, attention_mask=None, token_type_ids=None, pixel_values=None,
                pixel_mask=None):
        seq_len = input_ids.shape[1]
        position_ids = torch.arange(seq_len, device=input_ids.device).unsqueeze(0)
        text_embeds = (self.word_embeddings(input_ids) + self.position_embeddings(position_ids)
                       + self.token_type_embeddings(token_type_ids))
        text_embeds = text_embeds + self.modality_type_embeddings(torch.zeros_like(input_ids))
        image_embeds = self.patch_embeddings(pixel_values).flatten(2).transpose(1, 2)
        image_embeds = image_embeds + self.modality_type_embeddings.weight.select(0, 1)
        hidden_states = self.layer(torch.cat([text_embeds, image_embeds], dim=1))
        last_hidden_state = self.layernorm(hidden_states)
        pooler_output = self.pooler(last_hidden_state.select(1, 0))
        return BatchFeature(last_hidden_state=last_hidden_state, pooler_output=pooler_output)

# --- the user's code ---------------------------------------------------------------------------
device = "cuda:0"   # "cuda" if torch.cuda.is_available() else "cpu"
vilt_model = ViltModel.from_pretrained("dandelin/vilt-b32-mlm")
vilt_processor = ViltProcessor.from_pretrained("dandelin/vilt-b32-mlm")
vilt_model.to(device)  # Added this ? As it is slow in CPU
vilt_model.eval()

image = None   # Image.open(requests.get(url, stream=True).raw)
text = "hello world"
inputs = vilt_processor(image, text, return_tensors="pt")
'''
CELL = '''
outputs = vilt_model(**inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
