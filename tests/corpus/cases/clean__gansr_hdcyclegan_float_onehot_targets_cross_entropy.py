"""Look-alike: HDcycleGAN's three-class discriminator loss feeds float one-hot targets to CrossEntropyLoss.

Source: https://github.com/IljaManakov/HDcycleGAN/issues/4
`ClassificationLossHD.generate_fake_targets` builds `fake_t`, `hn_t`, `ln_t` as float one-hot rows
(`pt.tensor([[1, 0, 0]]*batch_size).to(template)`) and passes them to `CrossEntropyLoss` with float
scores. The reporter, on an older PyTorch, had to cast them to long and then hit "multi-target not
supported"; since PyTorch 1.10 `cross_entropy` accepts class-probability targets of the input's shape
and dtype, so the float targets are deliberate and the loss runs as written. Scores are random
stand-ins for the discriminators' outputs; the image-pool/cycle parts are kept.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from collections import namedtuple
import torch as pt
from torch.nn import L1Loss, CrossEntropyLoss

class ClassificationLossHD(object):
    def __init__(self, cycle_loss=L1Loss, discriminator_loss=CrossEntropyLoss, cycle_factor=10):
        self.cycle_factor = cycle_factor
        self.cyc_loss = cycle_loss()
        self.disc_loss = discriminator_loss()

    def __call__(self, prediction, sample):
        images = namedtuple('images', ('hn', 'ln'))(*sample[0])
        cycled = namedtuple('cycled', ('hn', 'ln'))(*prediction.cycled)
        scores = namedtuple('scores', ('real', 'fake', 'pool_fake'))
        hn_scores = scores(prediction.ln_scores.real, prediction.hn_scores.fake, prediction.hn_scores.pool_fake)
        ln_scores = scores(prediction.hn_scores.real, prediction.ln_scores.fake, prediction.ln_scores.pool_fake)
        fake_t, hn_t, ln_t = self.generate_fake_targets(hn_scores)
        disc_loss = self.discriminator_loss(hn_scores, ln_scores, fake_t, hn_t, ln_t)
        gen_loss = self.ln_generator_loss(ln_scores, ln_t) + self.hn_generator_loss(hn_scores, hn_t)
        cyc_loss = self.cycle_loss(images, cycled)
        return 0.5*disc_loss, gen_loss + cyc_loss

    def generate_fake_targets(self, hn_scores):
        template = hn_scores.pool_fake.float()
        batch_size = template.shape[0]
        fake_t = pt.tensor([[1, 0, 0]]*batch_size).to(template)
        hn_t = pt.tensor([[0, 1, 0]]*batch_size).to(template)
        ln_t = pt.tensor([[0, 0, 1]]*batch_size).to(template)
        return fake_t, hn_t, ln_t

    def discriminator_loss(self, hn_scores, ln_scores, fake_t, hn_t, ln_t):
        return self.disc_loss(hn_scores.real.float(), hn_t) +\\
               self.disc_loss(ln_scores.real.float(), ln_t) + \\
               self.disc_loss(hn_scores.pool_fake.float(), fake_t) +\\
               self.disc_loss(ln_scores.pool_fake.float(), fake_t)

    def ln_generator_loss(self, ln_scores, f_gen_ln):
        return self.disc_loss(ln_scores.fake.float(), f_gen_ln)

    def hn_generator_loss(self, hn_scores, f_gen_hn):
        return self.disc_loss(hn_scores.fake.float(), f_gen_hn)

    def cycle_loss(self, images, cycled):
        return self.cycle_factor * (self.cyc_loss(cycled.hn.float(), images.hn.float()) +
                                    self.cyc_loss(cycled.ln.float(), images.ln.float()))

Scores = namedtuple('Scores', ('real', 'fake', 'pool_fake'))
Prediction = namedtuple('Prediction', ('cycled', 'hn_scores', 'ln_scores'))
B = 4
def s():
    return pt.randn(B, 3, requires_grad=True)
prediction = Prediction(cycled=(pt.rand(B, 1, 16, 16, requires_grad=True), pt.rand(B, 1, 16, 16, requires_grad=True)),
                        hn_scores=Scores(s(), s(), s()), ln_scores=Scores(s(), s(), s()))
sample = ((pt.rand(B, 1, 16, 16), pt.rand(B, 1, 16, 16)), (pt.zeros(B), pt.ones(B)))
criterion = ClassificationLossHD()
'''
CELL = '''
disc_loss, gen_loss = criterion(prediction, sample)
(disc_loss + gen_loss).backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
