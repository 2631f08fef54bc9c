"""OpenOCR SMTR training: the next/previous-character labels arrive as int32 and SMTRDecoder.forward_train hands them to F.cross_entropy.

Source: https://github.com/Topdu/OpenOCR/issues/68
Training SMTR stopped with 'RuntimeError: "nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented
for 'Int''. `SMTRLabelEncode` stores `label_next` / `label_next_pre` as `np.array(list_of_ints)`,
which is int32 under the reporter's NumPy, and `SMTRDecoder.forward_train` concatenates them into
`label` for `F.cross_entropy`. The maintainer's answer: change smtr_decoder.py lines 616-619 to
`label.flatten(0, 1).long()`. Stand-in: `CrossAttention` as in the repository, `SSMatchLayer` without
drop-path/MLP (one layer), `SMTRDecoder.__init__`/`forward`/`forward_train` (ds=False path) kept, a one-conv
encoder for SVTRv2, and label arrays built as the encoder would on that platform (int32); CPU only.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0); np.random.seed(0)

class CrossAttention(nn.Module):

    def __init__(self, dim, num_heads=8, qkv_bias=False, qk_scale=None, attn_drop=0.0, proj_drop=0.0):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = qk_scale or head_dim**-0.5
        self.q = nn.Linear(dim, dim, bias=qkv_bias)
        self.kv = nn.Linear(dim, dim * 2, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, q, kv, key_mask=None):
        N, C = kv.shape[1:]
        QN = q.shape[1]
        q = self.q(q).reshape([-1, QN, self.num_heads, C // self.num_heads]).transpose(1, 2)
        q = q * self.scale
        k, v = self.kv(kv).reshape([-1, N, 2, self.num_heads, C // self.num_heads]).permute(2, 0, 3, 1, 4)
        attn = q.matmul(k.transpose(2, 3))
        if key_mask is not None:
            attn = attn + key_mask.unsqueeze(1)
        attn = F.softmax(attn, -1)
        attn = self.attn_drop(attn)
        x = (attn.matmul(v)).transpose(1, 2).reshape((-1, QN, C))
        x = self.proj(x)
        x = self.proj_drop(x)
        return x

class SSMatchLayer(nn.Module):
    def __init__(self, dim, nextq2subs_head2=None, dynq2img_heads=2, qkv_bias=True, **kwargs):
        super().__init__()
        self.dim = dim
        self.normq1 = nn.LayerNorm(dim, eps=1e-6)
        self.normkv1 = nn.LayerNorm(dim, eps=1e-6)
        self.images_to_question_cross_attn = CrossAttention(dim, num_heads=nextq2subs_head2 or dim // 32, qkv_bias=qkv_bias)
        self.normq2 = nn.LayerNorm(dim, eps=1e-6)
        self.normkv2 = nn.LayerNorm(dim, eps=1e-6)
        self.question_to_images_cross_attn = CrossAttention(dim, num_heads=dynq2img_heads, qkv_bias=qkv_bias)

    def forward(self, question_f, prompt_f, visual_f, mask=None):
        question_f = question_f + self.images_to_question_cross_attn(self.normq1(question_f), self.normkv1(prompt_f), mask)
        question_f = question_f.reshape(visual_f.shape[0], -1, self.dim)
        question_f = self.question_to_images_cross_attn(self.normq2(question_f), self.normkv2(visual_f))
        return question_f

class Embeddings(nn.Module):
    def __init__(self, d_model, vocab, scale_embedding=True):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model)
        self.d_model = d_model
        self.scale_embedding = scale_embedding

    def forward(self, x):
        x = self.embedding(x)
        return x * (self.d_model ** 0.5) if self.scale_embedding else x

class SMTRDecoder(nn.Module):

    def __init__(self, in_channels, out_channels, num_layer=2, nextq2subs_head2=None, dynq2img_heads=2,
                 max_len=25, vis_seq=50, ds=False, pos2d=False, sub_str_len=5, **kwargs):
        super(SMTRDecoder, self).__init__()
        self.out_channels = out_channels
        dim = in_channels
        self.dim = dim
        self.max_len = max_len + 3  # max_len + eos + bos
        self.char_embed = Embeddings(d_model=dim, vocab=self.out_channels, scale_embedding=True)
        self.ignore_index = out_channels - 1
        self.sub_str_len = sub_str_len
        self.bos_next = out_channels - 3
        self.bos_pre = out_channels - 2
        self.eos = 0
        self.cmff_decoder = nn.ModuleList([
            SSMatchLayer(dim=dim, nextq2subs_head2=nextq2subs_head2, dynq2img_heads=dynq2img_heads,
                         qkv_bias=True) for i in range(num_layer)
        ])
        self.ds = ds
        self.pos2d = pos2d
        self.vis_pos_embed = nn.Parameter(0.02 * torch.randn([1, vis_seq, dim]), requires_grad=True)
        self.next_token = nn.Parameter(0.02 * torch.randn([1, 1, 1, dim]), requires_grad=True)
        self.pre_token = nn.Parameter(0.02 * torch.randn([1, 1, 1, dim]), requires_grad=True)
        self.prompt_next_embed = nn.Parameter(0.02 * torch.randn([1, 1, self.sub_str_len + 1, dim]), requires_grad=True)
        self.prompt_pre_embed = nn.Parameter(0.02 * torch.randn([1, 1, self.sub_str_len + 1, dim]), requires_grad=True)
        self.norm_pred = nn.LayerNorm(dim, eps=1e-6)
        self.ques1_head = nn.Linear(dim, self.out_channels - 3)

    def forward(self, x, data=None):
        if self.training:
            return self.forward_train(x, data)
        raise NotImplementedError("inference path not part of the stand-in")

    def forward_train(self, x, targets=None):
        bs = x.shape[0]

        if not self.ds:
            visual_f = x + self.vis_pos_embed
        elif self.pos2d:
            visual_f = x + self.vis_pos_embed[:, :, :x.shape[2], :x.shape[3]]
        else:
            visual_f = x
        max_len_curr = targets[3].max()
        subs = targets[1][:, :max_len_curr, :]  # b, n, subs_l
        mask_next = torch.where(subs == self.bos_next, float('-inf'), 0)  # b, n, subs_l
        prompt_next_embed = self.prompt_next_embed.tile([bs, max_len_curr, 1, 1])
        prompt_char_next = torch.concat([
            prompt_next_embed[:, :, :1, :],
            prompt_next_embed[:, :, 1:, :] + self.char_embed(subs)
        ], 2)  # b, n, sub_l, dim
        next = self.next_token.tile([bs, max_len_curr, 1, 1])

        max_len_curr_pre = targets[6].max()
        subs = targets[4][:, :max_len_curr_pre, :]  # b, n, subs_l
        mask_pre = torch.where(subs == self.bos_pre, float('-inf'), 0)  # b, n, subs_l
        prompt_pre_embed = self.prompt_pre_embed.tile([bs, max_len_curr_pre, 1, 1])
        prompt_char_pre = torch.concat([
            prompt_pre_embed[:, :, :1, :],
            prompt_pre_embed[:, :, 1:, :] + self.char_embed(subs)
        ], 2)  # b, n, sub_l, dim
        pre = self.pre_token.tile([bs, max_len_curr_pre, 1, 1])  # b, n, 1, dim

        prompt_char = torch.concat([prompt_char_next, prompt_char_pre], 1)
        next_pre = torch.concat([next, pre], 1)

        mask_pad = torch.zeros([bs * (max_len_curr + max_len_curr_pre), 1], dtype=torch.float32, device=x.device)
        mask = torch.concat([mask_next, mask_pre], 1).flatten(0, 1)
        mask = torch.concat([mask_pad, mask], 1)
        next_pre = next_pre.flatten(0, 1)
        prompt_char = prompt_char.flatten(0, 1)
        for layer in self.cmff_decoder:
            next_pre = layer(next_pre, prompt_char, visual_f, mask.unsqueeze(1))
        answer1_pred = self.ques1_head(self.norm_pred(next_pre))
        logits = answer1_pred[:, :max_len_curr]

        label = torch.concat(
            [targets[2][:, :max_len_curr], targets[5][:, :max_len_curr_pre]],
            1)
        loss1 = F.cross_entropy(answer1_pred.flatten(0, 1),
                                label.flatten(0, 1),
                                ignore_index=self.ignore_index,
                                reduction='mean')
        loss = {'loss': loss1}
        return [loss, logits]

class SVTRv2Encoder(nn.Module):
    """Stand-in for the SVTRv2 encoder: (B, 3, 32, 128) -> (B, 50, dim)."""
    def __init__(self, dim=64):
        super().__init__()
        self.conv = nn.Conv2d(3, dim, kernel_size=(16, 5), stride=(16, 5), padding=(0, 1))

    def forward(self, x):
        return self.conv(x).flatten(2)[:, :, :50].transpose(1, 2)

class BaseRecognizer(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, x, data=None):
        x = self.encoder(x)
        return self.decoder(x, data=data)

def smtr_label_batch(bs, out_channels=40, max_text_len=25, sub_str_len=5):
    """Label arrays as SMTRLabelEncode writes them (np.array of Python ints: int32 on the reporter's NumPy)."""
    n = max_text_len * 2 + 2
    pad = out_channels - 1
    items = []
    for _ in range(bs):
        L = np.random.randint(3, 10)
        length_subs = L + 1 + np.random.randint(0, L)
        subs = np.full((n, sub_str_len), pad, dtype=np.int32)
        subs[:length_subs] = np.random.randint(1, out_channels - 5, (length_subs, sub_str_len))
        subs[0, :] = out_channels - 3
        nxt = np.full((n,), pad, dtype=np.int32)
        nxt[:length_subs] = np.random.randint(0, out_channels - 5, (length_subs,))
        label = np.full((max_text_len + 2,), pad, dtype=np.int32)
        label[:L + 2] = np.random.randint(1, out_channels - 5, (L + 2,))
        items.append(dict(label=label, label_subs=subs, label_next=nxt, length_subs=np.array(length_subs, dtype=np.int32),
                          label_subs_pre=subs.copy(), label_next_pre=nxt.copy(),
                          length_subs_pre=np.array(length_subs, dtype=np.int32), length=np.array(L, dtype=np.int32)))
    keys = ['label', 'label_subs', 'label_next', 'length_subs', 'label_subs_pre', 'label_next_pre', 'length_subs_pre', 'length']
    return [torch.from_numpy(np.stack([it[k] for it in items])) for k in keys]

model = BaseRecognizer(SVTRv2Encoder(dim=64), SMTRDecoder(in_channels=64, out_channels=40, num_layer=1))
model.train()
optimizer = torch.optim.AdamW(model.parameters(), lr=6.5e-4)
images = torch.randn(4, 3, 32, 128)
batch = [images] + smtr_label_batch(4)
'''
CELL = '''
preds = model(batch[0], data=batch[1:])
loss = preds[0]['loss']
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long", "not implemented for 'Int'")
CULPRITS = ["model.decoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("label.flatten(0, 1),", "label.flatten(0, 1).long(),")
CLEAN = False
