"""Look-alike: LLaVA's gradio model worker: the image processor returns float32 CPU `pixel_values`, cast and moved with `images.to(self.model.device, dtype=torch.float16)`; `input_ids` carry the `-200` image placeholder that is never embedded.

Source: https://github.com/haotian-liu/LLaVA/blob/c121f0432da27facab705978f83c4ada465e46fd/llava/serve/model_worker.py
`ModelWorker.generate_stream`: `images = process_images(images, image_processor, model.config)` (CLIP image
processor, float32 on the CPU), `images = images.to(self.model.device, dtype=torch.float16)`, `input_ids =
tokenizer_image_token(prompt, tokenizer, IMAGE_TOKEN_INDEX, return_tensors='pt').unsqueeze(0).to(self.device)`,
then `model.generate(inputs=input_ids, images=images, image_sizes=image_sizes, ...)`;
`prepare_inputs_labels_for_multimodal` embeds the text around IMAGE_TOKEN_INDEX (-200) and splices
`encode_images(images)` (vision tower + mm_projector, fp16) in its place. A float32 CPU batch and an out-of-vocab
id next to a half GPU model, handled on purpose. Stand-ins: the CLIP vision tower, mm_projector and LLaMA reduced
to small fp16 layers; the split at the image token uses the position `tokenizer_image_token` returns (the
`torch.where(cur_input_ids == IMAGE_TOKEN_INDEX)` lookup needs data, which the fake-cuda simulation lacks);
`generate` reduced to its first step.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

IMAGE_TOKEN_INDEX = -200
DEFAULT_IMAGE_TOKEN = "<image>"

class CLIPImageProcessor:
    image_mean = [0.48145466, 0.4578275, 0.40821073]
    image_std = [0.26862954, 0.26130258, 0.27577711]
    def __call__(self, images, return_tensors='pt'):
        arr = np.stack([np.asarray(im, dtype=np.float32) / 255.0 for im in images])
        arr = (arr - np.array(self.image_mean, dtype=np.float32)) / np.array(self.image_std, dtype=np.float32)
        return {'pixel_values': torch.from_numpy(arr.transpose(0, 3, 1, 2).copy())}

def process_images(images, image_processor, model_cfg):
    return image_processor(images, return_tensors='pt')['pixel_values']

def tokenizer_image_token(prompt, tokenizer, image_token_index=IMAGE_TOKEN_INDEX, return_tensors=None):
    prompt_chunks = [tokenizer(chunk) for chunk in prompt.split('<image>')]
    input_ids = [1] + prompt_chunks[0] + [image_token_index] + prompt_chunks[1]
    if return_tensors == 'pt':
        return torch.tensor(input_ids, dtype=torch.long)
    return input_ids

tokenizer = lambda text: [hash(w) % 500 + 2 for w in text.split()]

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = type("LlavaConfig", (), {"image_aspect_ratio": "square", "max_position_embeddings": 2048})()
        self.vision_tower = nn.Sequential(nn.Conv2d(3, 16, 14, stride=14), nn.Flatten(2))   # CLIP ViT-L/14, reduced
        self.mm_projector = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 32))
        self.embed_tokens = nn.Embedding(512, 32)
        self.layers = nn.Sequential(nn.Linear(32, 32), nn.GELU())
        self.lm_head = nn.Linear(32, 512, bias=False)

    @property
    def device(self):
        return next(self.parameters()).device

    def encode_images(self, images):
        image_features = self.vision_tower(images).transpose(1, 2)
        return self.mm_projector(image_features)

    def prepare_inputs_labels_for_multimodal(self, input_ids, images, image_token_pos):
        image_features = self.encode_images(images)
        cur_input_ids = input_ids[0]
        before = self.embed_tokens(cur_input_ids[:image_token_pos])
        after = self.embed_tokens(cur_input_ids[image_token_pos + 1:])
        return torch.cat([before, image_features[0], after], dim=0)[None]

    def generate(self, inputs, images, image_sizes, image_token_pos, **kwargs):
        inputs_embeds = self.prepare_inputs_labels_for_multimodal(inputs, images, image_token_pos)
        return self.lm_head(self.layers(inputs_embeds))[:, -1].argmax(-1)

device = "cuda:0"
model = LlavaLlamaForCausalLM().to(device=device, dtype=torch.float16)
image_processor = CLIPImageProcessor()
# gradio: the uploaded image, decoded by load_image_from_base64
pil_like_image = np.random.randint(0, 256, size=(56, 56, 3), dtype=np.uint8)
prompt = "A chat between a curious human and an artificial intelligence assistant. USER: <image>\\nWhat is unusual about this image? ASSISTANT:"
'''
CELL = '''
with torch.inference_mode():
    images = [pil_like_image]
    image_sizes = [(56, 56)]
    images = process_images(images, image_processor, model.config)
    if type(images) is list:
        images = [image.to(model.device, dtype=torch.float16) for image in images]
    else:
        images = images.to(model.device, dtype=torch.float16)
    input_ids = tokenizer_image_token(prompt, tokenizer, IMAGE_TOKEN_INDEX, return_tensors='pt').unsqueeze(0).to(device)
    image_token_pos = 1 + len(tokenizer(prompt.split('<image>')[0]))
    output_ids = model.generate(inputs=input_ids, images=images, image_sizes=image_sizes,
                                image_token_pos=image_token_pos, do_sample=True, temperature=0.2, max_new_tokens=512)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
