"""DomainBed DANN run on the CPU: `update` builds the domain labels with a hard-coded `device='cuda'`.

Source: https://github.com/facebookresearch/DomainBed/pull/30
"Fix running on CPU": some DomainBed algorithms did not work on the CPU because they created tensors
on the GPU; in `AbstractDANN.update` the discriminator targets were
`torch.full((x.shape[0], ), i, dtype=torch.int64, device='cuda')` while the algorithm and the
minibatches lived on the CPU, so `F.cross_entropy(disc_out, disc_labels)` mixed devices. The merged fix
takes the device from the minibatch (`.cuda()` / 'cuda' replaced with `.to(device)`). Stand-in: a small
MLP featurizer/classifier/discriminator with DomainBed's DANN update (grad penalty, alternating D/G
steps); meta plays the hard-coded GPU, the user's run is on the CPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd as autograd

class AbstractDANN(nn.Module):
    def __init__(self, input_shape, num_classes, num_domains, hparams, conditional, class_balance):
        super().__init__()
        self.hparams = hparams
        self.register_buffer('update_count', torch.tensor([0]))
        self.conditional = conditional
        self.class_balance = class_balance
        self.featurizer = nn.Sequential(nn.Linear(input_shape[0], 32), nn.ReLU())
        self.classifier = nn.Linear(32, num_classes)
        self.discriminator = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, num_domains))
        self.class_embeddings = nn.Embedding(num_classes, 32)
        self.disc_opt = torch.optim.Adam(
            list(self.discriminator.parameters()) + list(self.class_embeddings.parameters()),
            lr=hparams["lr_d"], betas=(hparams['beta1'], 0.9))
        self.gen_opt = torch.optim.Adam(
            list(self.featurizer.parameters()) + list(self.classifier.parameters()),
            lr=hparams["lr_g"], betas=(hparams['beta1'], 0.9))

    def update(self, minibatches, unlabeled=None):
        device = 'meta'            # DomainBed before PR #30: 'cuda' hard-coded (meta plays the GPU here)
        self.update_count += 1
        all_x = torch.cat([x for x, y in minibatches])
        all_y = torch.cat([y for x, y in minibatches])
        all_z = self.featurizer(all_x)
        if self.conditional:
            disc_input = all_z + self.class_embeddings(all_y)
        else:
            disc_input = all_z
        disc_out = self.discriminator(disc_input)
        disc_labels = torch.cat([
            torch.full((x.shape[0], ), i, dtype=torch.int64, device=device)
            for i, (x, y) in enumerate(minibatches)
        ])
        disc_loss = F.cross_entropy(disc_out, disc_labels)
        disc_softmax = F.softmax(disc_out, dim=1)
        input_grad = autograd.grad(disc_softmax[:, disc_labels].sum(), [disc_input], create_graph=True)[0]
        grad_penalty = (input_grad ** 2).sum(dim=1).mean(dim=0)
        disc_loss += self.hparams['grad_penalty'] * grad_penalty

        d_steps_per_g = self.hparams['d_steps_per_g_step']
        if (self.update_count.item() % (1 + d_steps_per_g) < d_steps_per_g):
            self.disc_opt.zero_grad()
            disc_loss.backward()
            self.disc_opt.step()
            return {'disc_loss': disc_loss.item()}
        else:
            all_preds = self.classifier(all_z)
            classifier_loss = F.cross_entropy(all_preds, all_y)
            gen_loss = classifier_loss + (self.hparams['lambda'] * -disc_loss)
            self.disc_opt.zero_grad()
            self.gen_opt.zero_grad()
            gen_loss.backward()
            self.gen_opt.step()
            return {'gen_loss': gen_loss.item()}

class DANN(AbstractDANN):
    def __init__(self, input_shape, num_classes, num_domains, hparams):
        super().__init__(input_shape, num_classes, num_domains, hparams, conditional=False, class_balance=False)

device = "cpu"       # "cuda" if torch.cuda.is_available() else "cpu": this machine has no GPU
hparams = {'lr_d': 1e-3, 'lr_g': 1e-3, 'beta1': 0.5, 'grad_penalty': 0.0, 'd_steps_per_g_step': 1, 'lambda': 1.0}
algorithm = DANN(input_shape=(16,), num_classes=4, num_domains=3, hparams=hparams)
algorithm.to(device)
train_minibatches_iterator = iter([[(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(3)]])
'''
CELL = '''
minibatches_device = [(x.to(device), y.to(device)) for x, y in next(train_minibatches_iterator)]
step_vals = algorithm.update(minibatches_device)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["algorithm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("device = 'meta' ", "device = minibatches[0][0].device ")
CLEAN = False
