"""T5 split over two GPUs with `model.parallelize(device_map)`: beam search reorders each block's key/value cache with `beam_idx` moved to that cache's GPU.

Source: https://github.com/huggingface/transformers/blob/v4.7.0/src/transformers/models/t5/modeling_t5.py
Look-alike: a deliberate two-GPU layout (blocks 0-2 on cuda:0, 3-5 on cuda:1, `lm_head` and the
generated ids on cuda:0), and `generate` builds `beam_idx` on the input's device; since PR #11717
`T5ForConditionalGeneration._reorder_cache` does `layer_past_state.index_select(0,
beam_idx.to(layer_past_state.device))`, so the cuda:1 caches are indexed on cuda:1. Stand-in: a tiny
T5 with `parallelize`, per-block caches and a fixed-length beam search as `generate` runs it.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class T5Block(nn.Module):
    def __init__(self, d=16, is_decoder=False):
        super().__init__()
        self.is_decoder = is_decoder
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, hidden_states, encoder_hidden_states=None, past_key_value=None):
        k, v = self.k(hidden_states), self.v(hidden_states)
        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=1)
            v = torch.cat([past_key_value[1], v], dim=1)
        att = torch.softmax(hidden_states @ k.transpose(1, 2), -1) @ v
        if encoder_hidden_states is not None:
            att = att + encoder_hidden_states.mean(1, keepdim=True)
        return hidden_states + self.o(att), (k, v)

class T5Stack(nn.Module):
    def __init__(self, embed_tokens, n_layers=6, is_decoder=False):
        super().__init__()
        self.embed_tokens = embed_tokens
        self.block = nn.ModuleList([T5Block(is_decoder=is_decoder) for _ in range(n_layers)])
        self.final_layer_norm = nn.LayerNorm(16)
        self.model_parallel = False

    def parallelize(self, device_map):
        self.device_map = device_map
        self.first_device = "cuda:" + str(min(device_map.keys()))
        self.last_device = "cuda:" + str(max(device_map.keys()))
        for k, v in device_map.items():
            for layer in v:
                self.block[layer] = self.block[layer].to("cuda:" + str(k))
        self.embed_tokens = self.embed_tokens.to(self.first_device)
        self.final_layer_norm = self.final_layer_norm.to(self.last_device)
        self.model_parallel = True

    def forward(self, input_ids, encoder_hidden_states=None, past_key_values=None):
        hidden_states = self.embed_tokens(input_ids)
        past_key_values = past_key_values or [None] * len(self.block)
        present = ()
        for i, (layer_module, past) in enumerate(zip(self.block, past_key_values)):
            dev = layer_module.k.weight.device
            hidden_states = hidden_states.to(dev)
            if encoder_hidden_states is not None:
                encoder_hidden_states = encoder_hidden_states.to(dev)
            hidden_states, kv = layer_module(hidden_states, encoder_hidden_states, past)
            present = present + (kv,)
        hidden_states = self.final_layer_norm(hidden_states.to(self.final_layer_norm.weight.device))
        return hidden_states, present

class T5ForConditionalGeneration(nn.Module):
    """Stand-in for transformers' T5ForConditionalGeneration (model parallel API of 4.x)."""
    def __init__(self, vocab_size=32, d=16, n_layers=6):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d)
        self.encoder = T5Stack(self.shared, n_layers)
        self.decoder = T5Stack(self.shared, n_layers, is_decoder=True)
        self.lm_head = nn.Linear(d, vocab_size, bias=False)
        self.decoder_start_token_id = 0

    def parallelize(self, device_map=None):
        self.encoder.parallelize(device_map)
        self.decoder.parallelize(device_map)
        self.lm_head = self.lm_head.to(self.decoder.first_device)
        self.model_parallel = True

    def _reorder_cache(self, past, beam_idx):
        reordered_decoder_past = ()
        for layer_past_states in past:
            reordered_layer_past_states = ()
            for layer_past_state in layer_past_states:
                reordered_layer_past_states = reordered_layer_past_states + (
                    layer_past_state.index_select(0, beam_idx.to(layer_past_state.device)),
                )
            reordered_decoder_past = reordered_decoder_past + (reordered_layer_past_states,)
        return reordered_decoder_past

    @torch.no_grad()
    def generate(self, input_ids, num_beams=2, max_length=4):
        batch_size = input_ids.size(0)
        input_ids = input_ids.repeat_interleave(num_beams, dim=0)
        encoder_hidden_states, _ = self.encoder(input_ids)
        decoder_input_ids = torch.full((batch_size * num_beams, 1), self.decoder_start_token_id,
                                       dtype=torch.long, device=input_ids.device)
        beam_scores = torch.zeros(batch_size, num_beams, device=input_ids.device)
        beam_scores[:, 1:] = -1e9
        beam_scores = beam_scores.view(-1)
        past = None
        for _ in range(max_length):
            hidden, past = self.decoder(decoder_input_ids[:, -1:], encoder_hidden_states, past)
            logits = self.lm_head(hidden[:, -1].to(self.lm_head.weight.device))
            scores = torch.log_softmax(logits, -1) + beam_scores[:, None]
            vocab_size = scores.shape[-1]
            scores = scores.view(batch_size, num_beams * vocab_size)
            next_scores, next_tokens = torch.topk(scores, num_beams, dim=1)
            next_indices = torch.div(next_tokens, vocab_size, rounding_mode="floor")
            next_tokens = next_tokens % vocab_size
            beam_idx = (next_indices + torch.arange(batch_size, device=input_ids.device)[:, None]
                        * num_beams).view(-1)
            beam_scores = next_scores.view(-1)
            decoder_input_ids = torch.cat([decoder_input_ids.index_select(0, beam_idx),
                                           next_tokens.view(-1, 1)], dim=-1)
            past = self._reorder_cache(past, beam_idx)
        return decoder_input_ids

model = T5ForConditionalGeneration()        # from_pretrained("allenai/unifiedqa-t5-small")
device_map = {0: range(0, 3), 1: range(3, 6)}
model.parallelize(device_map)
input_ids = torch.tensor([[363, 47, 8, 945, 13, 8, 5796, 58, 1]]) % 32    # tokenizer.encode(input_string)
input_ids = input_ids.to("cuda:0")
'''
CELL = '''
output = model.generate(input_ids, num_beams=2)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
