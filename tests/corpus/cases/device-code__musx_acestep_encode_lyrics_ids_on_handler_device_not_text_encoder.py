"""ACE-Step 1.5 LoRA dataset preprocessing: lyric token ids go to the handler's device, not the text encoder's.

Source: https://github.com/ace-step/ACE-Step-1.5/issues/308
"Tensor preprocessing" of a song dataset failed with "Expected all tensors to be on the same device,
but found at least two devices, cpu and cuda:0! (when checking argument for argument index in method
wrapper_CUDA__index_select)"; the reporter had no way to choose a device ("Auto"). The fix (#309,
"Tensor preprocessing & Lora fix") aligns `encode_lyrics` with `encode_text`: the token ids are moved
to `next(text_encoder.parameters()).device` instead of the `device` passed in from
`dit_handler.device`, which is not where the text encoder actually lives. Stand-ins: the handler, a
tokenizer returning random ids, a text encoder with an `embed_tokens` embedding; the encoder runs on
"cuda:0" while the handler reports "cpu".
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class TokenizerOutput:
    def __init__(self, input_ids, attention_mask):
        self.input_ids, self.attention_mask = input_ids, attention_mask

class TextTokenizer:
    def __call__(self, text, padding="max_length", max_length=256, truncation=True, return_tensors="pt"):
        ids = torch.randint(0, 1000, (1, max_length))
        return TokenizerOutput(ids, torch.ones(1, max_length, dtype=torch.long))

class TextEncoder(nn.Module):
    def __init__(self, vocab=1000, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layer = nn.Linear(dim, dim)

    def forward(self, input_ids, attention_mask=None):
        return self.layer(self.embed_tokens(input_ids))

class DiTHandler:
    def __init__(self):
        self.device = "cpu"                                  # what the handler reports ("Auto")
        self.dtype = torch.float32
        self.text_tokenizer = TextTokenizer()
        self.text_encoder = TextEncoder().to("cuda:0")       # where the text encoder really is

def encode_text(text_encoder, text_tokenizer, text_prompt, device, dtype):
    """Encode caption/genre prompt into text hidden states."""
    text_inputs = text_tokenizer(text_prompt, padding="max_length", max_length=256, truncation=True,
                                 return_tensors="pt")
    text_input_ids = text_inputs.input_ids.to(device)
    text_attention_mask = text_inputs.attention_mask.to(device).to(dtype)

    text_dev = next(text_encoder.parameters()).device
    if text_input_ids.device != text_dev:
        text_input_ids = text_input_ids.to(text_dev)
        text_attention_mask = text_attention_mask.to(text_dev)

    with torch.no_grad():
        text_hidden_states = text_encoder(input_ids=text_input_ids).to(dtype)
    return text_hidden_states, text_attention_mask

def encode_lyrics(text_encoder, text_tokenizer, lyrics, device, dtype):
    """Encode lyrics into hidden states."""
    lyric_inputs = text_tokenizer(lyrics, padding="max_length", max_length=512, truncation=True,
                                  return_tensors="pt")
    lyric_input_ids = lyric_inputs.input_ids.to(device)
    lyric_attention_mask = lyric_inputs.attention_mask.to(device).to(dtype)

    with torch.no_grad():
        lyric_hidden_states = text_encoder.embed_tokens(lyric_input_ids).to(dtype)

    return lyric_hidden_states, lyric_attention_mask

class DatasetBuilder:
    def __init__(self, samples):
        self.samples = samples

    def preprocess_to_tensors(self, dit_handler):
        text_encoder = dit_handler.text_encoder
        text_tokenizer = dit_handler.text_tokenizer
        device = dit_handler.device
        dtype = dit_handler.dtype
        outputs = []
        for sample in self.samples:
            text_hidden_states, text_attention_mask = encode_text(
                text_encoder, text_tokenizer, sample["caption"], device, dtype)
            lyrics = sample["lyrics"] if sample["lyrics"] else "[Instrumental]"
            lyric_hidden_states, lyric_attention_mask = encode_lyrics(
                text_encoder, text_tokenizer, lyrics, device, dtype)
            outputs.append((text_hidden_states, lyric_hidden_states))
        return outputs

dit_handler = DiTHandler()
builder = DatasetBuilder([{"caption": "lofi hip hop, mellow piano", "lyrics": "[Verse]\\nrain on the window"}])
'''
CELL = '''
tensors = builder.preprocess_to_tensors(dit_handler)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encode_lyrics"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    lyric_input_ids = lyric_inputs.input_ids.to(device)\n",
    "    lyric_input_ids = lyric_inputs.input_ids.to(next(text_encoder.parameters()).device)\n",
)
CLEAN = False
