"""ComfyUI-LTXVideo Prompt Enhancer: the LLM is loaded with from_pretrained and never moved to the load device; the tokens are.

Source: https://github.com/Lightricks/LTX-Video/issues/143
Using the LTXV Prompt Enhancer node in ComfyUI raised "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!". A user traced it: `down_load_llm_model` (and
`down_load_image_captioner`) return `AutoModelForCausalLM.from_pretrained(model_path,
torch_dtype=torch.bfloat16)` with no `.to(load_device)`, while the enhancer sends the tokenized
prompt to the load device; the fix adds `.to(load_device)` after loading. Stand-in: a tiny causal
LM with a greedy `generate`, a character tokenizer, the loader and the enhancer's text-only path.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def get_torch_device():                          # comfy.model_management.get_torch_device()
    return torch.device("cuda:0")

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=256, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask=None):
        return self.lm_head(self.block(self.embed_tokens(input_ids)))

    def generate(self, input_ids, attention_mask=None, max_new_tokens=4):
        for _ in range(max_new_tokens):
            logits = self(input_ids, attention_mask)
            next_token = logits[:, -1].argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=1)
        return input_ids

class CharTokenizer:
    def __call__(self, texts, device):
        ids = torch.tensor([[min(ord(ch), 255) for ch in t[:32]] for t in texts])
        return {"input_ids": ids.to(device), "attention_mask": torch.ones_like(ids).to(device)}

class LTXVPromptEnhancerModel:
    def __init__(self, image_caption_model, llm_model, llm_tokenizer):
        self.image_caption_model = image_caption_model
        self.llm_model = llm_model
        self.llm_tokenizer = llm_tokenizer

class LTXVPromptEnhancerLoader:
    def down_load_llm_model(self, llm_name, load_device):
        llm_model = TinyCausalLM()               # AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=torch.bfloat16)
        llm_tokenizer = CharTokenizer()
        return llm_model, llm_tokenizer

    def down_load_image_captioner(self, image_captioner, load_device):
        return nn.Linear(8, 8)                   # AutoModelForCausalLM.from_pretrained(model_path, trust_remote_code=True)

    def load(self, llm_name, image_captioner_name):
        load_device = get_torch_device()
        llm_model, llm_tokenizer = self.down_load_llm_model(llm_name, load_device)
        image_caption_model = self.down_load_image_captioner(image_captioner_name, load_device)
        return (LTXVPromptEnhancerModel(image_caption_model, llm_model, llm_tokenizer),)

class LTXVPromptEnhancer:
    def enhance(self, prompt, prompt_enhancer, max_resulting_tokens=4):
        load_device = get_torch_device()
        inputs = prompt_enhancer.llm_tokenizer([prompt], load_device)
        outputs = prompt_enhancer.llm_model.generate(**inputs, max_new_tokens=max_resulting_tokens)
        return (outputs,)

prompt_enhancer = LTXVPromptEnhancerLoader().load("Llama-3.2-3B-Instruct", "Florence-2-large-PromptGen-v2.0")[0]
'''
CELL = '''
enhanced = LTXVPromptEnhancer().enhance("a red fox running through snow", prompt_enhancer)[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["prompt_enhancer.llm_model"]
FIX = "namespace"
REFERENCE_FIX = '''
prompt_enhancer.llm_model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
