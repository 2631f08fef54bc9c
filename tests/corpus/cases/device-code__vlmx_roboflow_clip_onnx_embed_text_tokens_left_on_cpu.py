"""Roboflow inference-models CLIP (ONNX backend) on a GPU: `embed_text` runs on CPU tokens, so text embeddings stay on the CPU.

Source: https://github.com/roboflow/inference/pull/2560
"`ClipOnnx.embed_text` tokenizes with `clip.tokenize(texts)`, which returns a CPU int32 tensor, and
forwards it without moving it to `self._device`. [The ONNX session] resolves the execution device from
the input tensor (CPU) and returns embeddings on CPU, while `embed_images` preprocesses onto
`self._device` ... so `compare_embeddings`' final `x_embeddings_norm @ y_embeddings_norm.T` raises
`RuntimeError: Expected all tensors to be on the same device`. Any zero-shot classification /
image-text similarity on GPU fails." Fix: move the tokenized batch to the model device in
`embed_text`, as the torch backend already does.
Stand-ins: `clip.tokenize`, the CLIP preprocessor, and an ONNX session run through iobinding that
returns its output on its input's device (random projections in place of the exported graphs).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
from threading import Lock
import torch
import torch.nn.functional as F

def _tokenize(texts, context_length=77):
    return torch.randint(1, 49408, (len(texts), context_length), dtype=torch.int32)
clip = types.SimpleNamespace(tokenize=_tokenize)

class InferenceSession:                     # onnxruntime session bound through iobinding (stand-in)
    def __init__(self, out_dim=512):
        self.out_dim = out_dim

    def run(self, inputs):
        x = next(iter(inputs.values()))
        # execution device is resolved from the input tensor; outputs are bound on that device
        return [torch.randn(x.shape[0], self.out_dim, device=x.device)]

def run_onnx_session_with_batch_size_limit(session, inputs, max_batch_size):
    return session.run(inputs)

def create_clip_preprocessor(image_size):
    def preprocess(images, input_color_format, device):
        batch = torch.stack([torch.as_tensor(i, dtype=torch.float32) for i in images])
        return torch.nn.functional.interpolate(batch, size=(image_size, image_size)).to(device)
    return preprocess

class TextImageEmbeddingModel:
    def compare_embeddings(self, x, y, x_type="image", y_type="text", **kwargs):
        if x_type == "image":
            x_embeddings = self.embed_images(images=x, **kwargs)
        else:
            x_embeddings = self.embed_text(texts=x, **kwargs)
        if y_type == "image":
            y_embeddings = self.embed_images(images=y, **kwargs)
        else:
            y_embeddings = self.embed_text(texts=y, **kwargs)
        x_embeddings_norm = F.normalize(x_embeddings, p=2, dim=1)
        y_embeddings_morm = F.normalize(y_embeddings, p=2, dim=1)
        return x_embeddings_norm @ y_embeddings_morm.T

class ClipOnnx(TextImageEmbeddingModel):
    def __init__(self, image_size=32, device=torch.device("cuda:0"), max_batch_size=32):
        self._visual_onnx_session = InferenceSession()
        self._textual_onnx_session = InferenceSession()
        self._visual_input_name = "image"
        self._textual_input_name = "text"
        self._device = device
        self._max_batch_size = max_batch_size
        self._visual_session_thread_lock = Lock()
        self._textual_session_thread_lock = Lock()
        self._preprocessor = create_clip_preprocessor(image_size=image_size)

    def embed_images(self, images, input_color_format=None, **kwargs):
        pre_processed_images = self._preprocessor(images, input_color_format, self._device)
        with self._visual_session_thread_lock:
            return run_onnx_session_with_batch_size_limit(
                session=self._visual_onnx_session,
                inputs={self._visual_input_name: pre_processed_images},
                max_batch_size=self._max_batch_size,
            )[0]

    def embed_text(self, texts, **kwargs):
        if not isinstance(texts, list):
            texts = [texts]
        tokenized_batch = clip.tokenize(texts)
        with self._textual_session_thread_lock:
            return run_onnx_session_with_batch_size_limit(
                session=self._textual_onnx_session,
                inputs={self._textual_input_name: tokenized_batch},
                max_batch_size=self._max_batch_size,
            )[0]

# AutoModel.from_pretrained("clip/ViT-B-32", backend="onnx", device=torch.device("cuda:0"))
model = ClipOnnx(device=torch.device("cuda:0"))
images = [torch.rand(3, 48, 48) for _ in range(2)]          # decoded frames, CPU
classes = ["a photo of a dog", "a photo of a cat", "a photo of a car"]
'''
CELL = '''
with torch.no_grad():
    similarities = model.compare_embeddings(images, classes, x_type="image", y_type="text")
    probs = (100.0 * similarities).softmax(dim=-1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        tokenized_batch = clip.tokenize(texts)\n",
                  "        tokenized_batch = clip.tokenize(texts).to(self._device)\n")
CLEAN = False
