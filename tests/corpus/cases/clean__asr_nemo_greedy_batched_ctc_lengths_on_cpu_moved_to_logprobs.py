"""NeMo `GreedyBatchedCTCInfer`: `decoder_lengths` may stay on the CPU; the decoder copies them to the log-probs' device.

Source: https://github.com/NVIDIA/NeMo/blob/main/nemo/collections/asr/parts/submodules/ctc_greedy_decoding.py
After PR #9347 ("decoder_lengths is allowed to be on CPU even when decoder_output is on GPU ...
there is code depending on that behavior, including our jupyter notebooks"), `forward` does
`decoder_lengths = decoder_lengths.to(decoder_output.device)` before
`_greedy_decode_logprobs_batched` builds `time_steps < out_len.unsqueeze(1)` on the GPU.
Look-alike: GPU log-probs and CPU int64 lengths passed together by the user. Stand-in:
`GreedyBatchedCTCInfer.forward` and `_greedy_decode_logprobs_batched` up to the scores (the
`.cpu()` unpacking into `Hypothesis` objects left out), no neural-type checking.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class GreedyBatchedCTCInfer(torch.nn.Module):
    """stand-in of nemo.collections.asr.parts.submodules.ctc_greedy_decoding.GreedyBatchedCTCInfer"""
    def __init__(self, blank_id):
        super().__init__()
        self.blank_id = blank_id

    @torch.no_grad()
    def forward(self, decoder_output, decoder_lengths):
        if decoder_lengths is None:
            decoder_lengths = torch.tensor(
                [decoder_output.shape[1]], dtype=torch.long, device=decoder_output.device
            ).expand(decoder_output.shape[0])

        # GreedyCTCInfer::forward(), by accident, works with
        # decoder_lengths on either CPU or GPU when decoder_output is
        # on GPU. For the sake of backwards compatibility, we also
        # allow decoder_lengths to be on the CPU device. In this case,
        # we simply copy the decoder_lengths from CPU to GPU. If both
        # tensors are already on the same device, this is a no-op.
        decoder_lengths = decoder_lengths.to(decoder_output.device)
        return self._greedy_decode_logprobs_batched(decoder_output, decoder_lengths)

    @torch.no_grad()
    def _greedy_decode_logprobs_batched(self, x, out_len):
        # x: [B, T, D]
        # out_len: [B]
        batch_size = x.shape[0]
        max_time = x.shape[1]

        predictions = x
        predictions_logprobs, predictions_labels = predictions.max(dim=-1)

        # Since predictions_logprobs is a padded matrix in the time
        # dimension, we consider invalid timesteps to be "blank".
        time_steps = torch.arange(max_time, device=x.device).unsqueeze(0).expand(batch_size, max_time)
        non_blank_ids_mask = torch.logical_and(predictions_labels != self.blank_id, time_steps < out_len.unsqueeze(1))
        scores = torch.where(non_blank_ids_mask, predictions_logprobs, 0.0).sum(axis=1)
        return predictions_labels, scores, out_len

decoding = GreedyBatchedCTCInfer(blank_id=128)
log_probs = torch.randn(4, 250, 129).log_softmax(-1).to("cuda:0")     # asr_model(...) output, on the GPU
encoded_len = torch.tensor([250, 231, 198, 120])                       # kept on the CPU, as the notebooks do
'''
CELL = '''
predictions, scores, lengths = decoding(decoder_output=log_probs, decoder_lengths=encoded_len)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
