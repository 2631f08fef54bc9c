"""Look-alike: detectron2's ImageList keeps the image sizes and `max_size` on the CPU while the images are on the GPU.

Source: https://github.com/facebookresearch/detectron2/pull/4511
A PR proposed moving the padding size tensor in `ImageList.from_tensors` to the images' device; the
maintainer declined: "The `max_size` tensor is expected to always be on CPU", it only computes the
padded batch shape. The CPU size bookkeeping next to accelerator images is correct: no finding
expected. Simulated with meta as the accelerator. Stand-in: `from_tensors` (size stacking, stride
rounding, padding copy).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch

class ImageList:
    def __init__(self, tensor, image_sizes):
        self.tensor, self.image_sizes = tensor, image_sizes

    @staticmethod
    def from_tensors(tensors, size_divisibility=32, pad_value=0.0):
        image_sizes = [(im.shape[-2], im.shape[-1]) for im in tensors]
        image_sizes_tensor = [torch.as_tensor(x) for x in image_sizes]
        max_size = torch.stack(image_sizes_tensor).max(0).values
        if size_divisibility > 1:
            stride = size_divisibility
            max_size = (max_size + (stride - 1)).div(stride, rounding_mode="floor") * stride
        batch_shape = [len(tensors)] + list(tensors[0].shape[:-2]) + max_size.tolist()
        batched_imgs = tensors[0].new_full(batch_shape, pad_value)
        for i, img in enumerate(tensors):
            batched_imgs[i, ..., : img.shape[-2], : img.shape[-1]].copy_(img)
        return ImageList(batched_imgs.contiguous(), image_sizes)

device = torch.device("meta")
images = [torch.rand(3, 480, 640).to(device), torch.rand(3, 512, 600).to(device)]
'''
CELL = '''
images_list = ImageList.from_tensors(images, size_divisibility=32)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
