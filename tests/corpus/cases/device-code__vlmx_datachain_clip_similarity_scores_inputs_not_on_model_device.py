"""DataChain's CLIP fine-tuning notebook on a GPU: `clip_similarity_scores` encodes CPU images/text with a model the notebook moved to cuda.

Source: https://github.com/datachain-ai/datachain/issues/265
"Notebook clip_fine_tuning - not correct usage `device`": the notebook picks `device = "cuda" if
torch.cuda.is_available() else "cpu"` and moves the model there, "but don't move image and text.
`clip_similarity_scores` also don't care about `device`", so scoring fails with a cpu/cuda mismatch on
a GPU. The reporter proposed adding a `device` argument or checking the model's device inside the
function; the maintainer: "Checking the model device seems like a good option". The fix gave
`clip_similarity_scores` a device that defaults to the model's and passes it to the image and text
converters.
Stand-ins: an open_clip-style model (linear patch/text towers), preprocess/tokenizer, and DataChain's
`convert_images`/`convert_text` helpers (which take a `device`); the function is the pre-fix one and
returns the score tensor (the library's final `.tolist()` is left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import inspect
import torch
from torch import nn

class CLIP(nn.Module):                          # open_clip.create_model_and_transforms("ViT-B-32") (toy)
    def __init__(self, d=32):
        super().__init__()
        self.visual = nn.Linear(3 * 8 * 8, d)
        self.token_embedding = nn.Embedding(100, d)
        self.text_projection = nn.Linear(d, d)

    def encode_image(self, image):
        return self.visual(image.flatten(1))

    def encode_text(self, text):
        return self.text_projection(self.token_embedding(text).mean(1))

def preprocess(img):                            # PIL image -> normalized tensor
    return torch.as_tensor(img, dtype=torch.float32)

def tokenizer(texts, context_length=8):
    return torch.randint(0, 100, (len(texts), context_length))

def convert_images(images, transform=None, encoder=None, device=None):
    converted = []
    for img in images:
        img = transform(img)
        if device:
            img = img.to(device)
        converted.append(encoder(img.unsqueeze(0)))
    return torch.cat(converted)

def convert_text(text, tokenizer=None, encoder=None, device=None):
    if isinstance(text, str):
        text = [text]
    res = tokenizer(text)
    if device:
        res = res.to(device)
    return encoder(res)

def _get_encoder(model, type):
    method_name = f"encode_{type}"
    if hasattr(model, method_name) and inspect.ismethod(getattr(model, method_name)):
        return getattr(model, method_name)
    raise ValueError(f"Error encoding {type}")

def clip_similarity_scores(images, text, model, preprocess, tokenizer, prob=False, image_to_text=True):
    with torch.no_grad():
        if images is not None:
            encoder = _get_encoder(model, "image")
            image_features = convert_images(images, transform=preprocess, encoder=encoder)
            image_features /= image_features.norm(dim=-1, keepdim=True)

        if text is not None:
            encoder = _get_encoder(model, "text")
            text_features = convert_text(text, tokenizer, encoder=encoder)
            text_features /= text_features.norm(dim=-1, keepdim=True)

        if images is not None and text is not None:
            if image_to_text:
                logits = 100.0 * image_features @ text_features.T
            else:
                logits = 100.0 * text_features @ image_features.T
        elif images is not None:
            logits = 100.0 * image_features @ image_features.T
        else:
            logits = 100.0 * text_features @ text_features.T

        return logits.softmax(dim=1) if prob else logits

device = "cuda:0"                               # "cuda" if torch.cuda.is_available() else "cpu"
model = CLIP().to(device)
images = [torch.rand(3, 8, 8) for _ in range(4)]            # PIL images from the chain
captions = ["a cat on a sofa", "a dog in the park", "a red car", "a bowl of fruit"]
'''
CELL = '''
scores = clip_similarity_scores(images, captions, model, preprocess, tokenizer, prob=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["clip_similarity_scores"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    with torch.no_grad():\n"
    "        if images is not None:\n"
    "            encoder = _get_encoder(model, \"image\")\n"
    "            image_features = convert_images(images, transform=preprocess, encoder=encoder)\n"
    "            image_features /= image_features.norm(dim=-1, keepdim=True)\n"
    "\n"
    "        if text is not None:\n"
    "            encoder = _get_encoder(model, \"text\")\n"
    "            text_features = convert_text(text, tokenizer, encoder=encoder)\n",
    "    device = next(model.parameters()).device\n"
    "    with torch.no_grad():\n"
    "        if images is not None:\n"
    "            encoder = _get_encoder(model, \"image\")\n"
    "            image_features = convert_images(images, transform=preprocess, encoder=encoder, device=device)\n"
    "            image_features /= image_features.norm(dim=-1, keepdim=True)\n"
    "\n"
    "        if text is not None:\n"
    "            encoder = _get_encoder(model, \"text\")\n"
    "            text_features = convert_text(text, tokenizer, encoder=encoder, device=device)\n",
)
CLEAN = False
