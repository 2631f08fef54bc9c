"""WhisperX forced alignment: for a one-character segment `tokens[1:]` is an empty list, and `torch.tensor([])` is float32.

Source: https://github.com/m-bain/whisperX/issues/1173
"IndexError: tensors used as indices must be long, int, byte or bool tensors" in
`get_wildcard_emission`, at `regular_scores = frame_emission[tokens.clamp(min=0)]`; the reporter fixed it
with `tokens.clamp(min=0).long()`. The function converts a Python list with `torch.tensor(tokens)`,
which gives int64 for a list of ints but float32 for an empty list: `get_trellis` passes `tokens[1:]`,
empty when the segment's cleaned text is a single character (our reading of when it fires). Stand-ins:
`get_trellis`/`get_wildcard_emission` as in whisperx/alignment.py, a random emission matrix and a
one-character segment's token list.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch

def get_trellis(emission, tokens, blank_id=0):
    num_frame = emission.size(0)
    num_tokens = len(tokens)

    trellis = torch.zeros((num_frame, num_tokens))
    trellis[1:, 0] = torch.cumsum(emission[1:, blank_id], 0)
    trellis[0, 1:] = -float("inf")
    trellis[-num_tokens + 1:, 0] = float("inf")

    for t in range(num_frame - 1):
        trellis[t + 1, 1:] = torch.maximum(
            # Score for staying at the same token
            trellis[t, 1:] + emission[t, blank_id],
            # Score for changing to the next token
            trellis[t, :-1] + get_wildcard_emission(emission[t], tokens[1:], blank_id),
        )
    return trellis

def get_wildcard_emission(frame_emission, tokens, blank_id):
    """Processing token emission scores containing wildcards (vectorized version)"""
    assert 0 <= blank_id < len(frame_emission)

    # Convert tokens to a tensor if they are not already
    tokens = torch.tensor(tokens) if not isinstance(tokens, torch.Tensor) else tokens

    # Create a mask to identify wildcard positions
    wildcard_mask = (tokens == -1)

    # Get scores for non-wildcard positions
    regular_scores = frame_emission[tokens.clamp(min=0)]  # clamp to avoid -1 index

    # Create a mask and compute the maximum value without modifying frame_emission
    max_valid_score = frame_emission.clone()   # Create a copy
    max_valid_score[blank_id] = float('-inf')  # Modify the copy to exclude the blank token
    max_valid_score = max_valid_score.max()

    # Use where operation to combine results
    result = torch.where(wildcard_mask, max_valid_score, regular_scores)
    return result

model_dictionary = {c: i + 1 for i, c in enumerate("abcdefghijklmnopqrstuvwxyz|")}
blank_id = 0
emission = torch.randn(20, len(model_dictionary) + 1).log_softmax(dim=-1)   # wav2vec2 frames for the segment
text_clean = "a"                                                             # segment text: "A."
tokens = [model_dictionary.get(c, -1) for c in text_clean]
'''
CELL = '''
trellis = get_trellis(emission, tokens, blank_id)
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["get_wildcard_emission"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "tokens = torch.tensor(tokens) if not isinstance(tokens, torch.Tensor) else tokens",
    "tokens = torch.tensor(tokens, dtype=torch.long) if not isinstance(tokens, torch.Tensor) else tokens",
)
CLEAN = False
