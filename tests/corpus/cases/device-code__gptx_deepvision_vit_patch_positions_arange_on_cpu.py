"""deepvision ViT on a GPU: `PatchingAndEmbedding.forward` builds the position ids with a bare `torch.arange`, on the CPU.

Source: https://github.com/DavidLandup0/deepvision/pull/31
Issue #30 ("Support ViT GPU training: CUDA acceleration issue on `forward()`") is closed by this PR,
whose author writes that "`torch.arange()` produced a CPU tensor, which didn't mix well with
`torch.nn.Embedding()`": the learnable position embedding lives on the GPU with the model, the
`positions` index tensor is made on the CPU in every forward. The fix moves `positions` to the
model's device (the PR hard-codes `"cuda" if available`; here the images' device, the same GPU).
Stand-in: the PyTorch `PatchingAndEmbedding` layer as of the PR's parent commit (conv patchify,
class token, `nn.Embedding` positions; interpolation branch left out) under a small ViT head.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class PatchingAndEmbedding(nn.Module):
    """Stand-in for deepvision.layers.patching_and_embedding.__PatchingAndEmbeddingPT."""
    def __init__(self, project_dim, input_shape, patch_size, padding="valid", **kwargs):
        super().__init__(**kwargs)
        self.project_dim = project_dim
        self.patch_size = patch_size
        self.input_shape = input_shape
        self.padding = padding
        self.projection = nn.Conv2d(
            input_shape[0],
            self.project_dim,
            kernel_size=self.patch_size,
            stride=self.patch_size,
            padding=self.padding,
        )
        self.class_token = nn.Parameter(torch.rand(1, 1, self.project_dim))
        self.num_patches = (
            input_shape[1] // self.patch_size * input_shape[2] // self.patch_size
        )
        self.position_embedding = torch.nn.Embedding(
            num_embeddings=self.num_patches + 1, embedding_dim=self.project_dim
        )

    def forward(self, images):
        patches = self.projection(images)
        patch_shapes = patches.shape
        patches_flattened = torch.reshape(
            patches,
            shape=(patch_shapes[0], patch_shapes[-1] * patch_shapes[-1], patch_shapes[1]),
        )
        flattened_shapes = patches_flattened.shape
        class_token_broadcast = self.class_token.expand(flattened_shapes[0], -1, -1)
        patches_flattened = torch.cat([class_token_broadcast, patches_flattened], 1)
        positions = torch.arange(start=0, end=self.num_patches + 1, step=1)
        encoded = patches_flattened + self.position_embedding(positions)
        return encoded

class ViTTiny(nn.Module):
    """Stand-in for deepvision's ViT: patch embedding, one encoder layer, class-token head."""
    def __init__(self, input_shape=(3, 32, 32), patch_size=8, project_dim=32, classes=10):
        super().__init__()
        self.patching_and_embedding = PatchingAndEmbedding(project_dim, input_shape, patch_size)
        self.encoder = nn.TransformerEncoderLayer(project_dim, nhead=4, dim_feedforward=64,
                                                  batch_first=True)
        self.norm = nn.LayerNorm(project_dim)
        self.head = nn.Linear(project_dim, classes)

    def forward(self, images):
        x = self.patching_and_embedding(images)
        x = self.encoder(x)
        return self.head(self.norm(x[:, 0]))

device = "cuda:0"
model = ViTTiny().to(device)
images = torch.randn(4, 3, 32, 32, device=device)
'''
CELL = '''
outputs = model(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.patching_and_embedding"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("positions = torch.arange(start=0, end=self.num_patches + 1, step=1)",
                  "positions = torch.arange(start=0, end=self.num_patches + 1, step=1).to(images.device)")
CLEAN = False
