"""Keras 3 (torch backend) GAN `train_step`: `real_images = torch.tensor(real_images)` lands on the CPU while Keras put the generated images on the GPU.

Source: https://github.com/keras-team/keras-core/pull/580
"set torch device when converting to tensor": with the torch backend Keras places its variables and
its random tensors on cuda when a GPU is available. In the GAN of the "custom train_step in torch"
guide, `generated_images = self.generator(random_latent_vectors)` is on cuda but the user-made
`real_images = torch.tensor(real_images)` is on the CPU, so `torch.concat([generated_images,
real_images], axis=0)` fails on a GPU machine. The fix converts with
`keras.ops.convert_to_tensor(real_images)`, which puts the tensor on Keras' device.
Stand-ins: `keras.random.normal` / `keras.ops.convert_to_tensor` create on the backend's default
device (cuda:0) as keras/src/backend/torch does; keras.Model is an nn.Module; train_step is reduced
to the discriminator's prediction on the combined batch (labels and optimizer steps left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
import numpy as np
import torch
import torch.nn as nn

DEFAULT_DEVICE = "cuda:0"      # keras.src.backend.torch.core: "cuda" when torch.cuda.is_available()

def _normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return torch.normal(mean, stddev, size=tuple(shape), device=DEFAULT_DEVICE)

def _convert_to_tensor(x, dtype=None, sparse=None):
    if isinstance(x, torch.Tensor):
        return x.to(DEFAULT_DEVICE)
    return torch.as_tensor(x, dtype=dtype, device=DEFAULT_DEVICE)

keras = types.SimpleNamespace(
    random=types.SimpleNamespace(normal=_normal),
    ops=types.SimpleNamespace(convert_to_tensor=_convert_to_tensor),
    Model=nn.Module,
)

latent_dim = 128

discriminator = nn.Sequential(
    nn.Conv2d(1, 64, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
    nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
    nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Linear(128, 1),
).to(DEFAULT_DEVICE)

generator = nn.Sequential(
    nn.Linear(latent_dim, 7 * 7 * 128), nn.LeakyReLU(0.2), nn.Unflatten(1, (128, 7, 7)),
    nn.ConvTranspose2d(128, 128, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
    nn.ConvTranspose2d(128, 128, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
    nn.Conv2d(128, 1, 7, padding=3), nn.Sigmoid(),
).to(DEFAULT_DEVICE)

class GAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim

    def train_step(self, real_images):
        if isinstance(real_images, tuple):
            real_images = real_images[0]
        # Sample random points in the latent space
        batch_size = real_images.shape[0]
        random_latent_vectors = keras.random.normal(shape=(batch_size, self.latent_dim))

        # Decode them to fake images
        generated_images = self.generator(random_latent_vectors)

        # Combine them with real images
        real_images = torch.tensor(real_images)
        combined_images = torch.concat([generated_images, real_images], axis=0)

        predictions = self.discriminator(combined_images)
        return predictions

gan = GAN(discriminator=discriminator, generator=generator, latent_dim=latent_dim)
real_images = np.random.rand(16, 1, 28, 28).astype("float32")     # one MNIST batch from the dataset
'''
CELL = '''
predictions = gan.train_step(real_images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gan"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "real_images = torch.tensor(real_images)",
    "real_images = keras.ops.convert_to_tensor(real_images)",
)
CLEAN = False
