"""PyKEEN InductiveNodePiece on a GPU: the validation/testing NodePiece representations stay on the CPU.

Source: https://github.com/pykeen/pykeen/issues/1228
"The `NodePieceRepresentation`s which are not "training" remain on the CPU. This leads to errors when
using `InductiveNodePiece`": after `inp.to("cuda")` the training representation's `assignment` is on
cuda:0 but the testing one's is on cpu, and calling it with CUDA indices fails.
`InductiveERModel.__init__` keeps the per-mode representations in a plain dict
(`self._mode_to_representations`, "this is *not* a nn.ModuleDict"), so `Module.to()` never sees the
inference-graph representations. The fix (PR #1229) registers them in an `nn.ModuleDict` keyed
`f"{mode}_factory"` ("training" collides with `nn.Module.training`) and looks them up by that key.
Stand-in: InductiveERModel/InductiveNodePiece with a NodePiece representation (token assignment
buffer + shared relation-token embedding); the token lookup is written as `index_select` (plain
indexing of a CPU tensor by fake CUDA indices is not checked by the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn


class NodePieceRepresentation(nn.Module):
    """pykeen.nn.NodePieceRepresentation: each entity is the mean of its relation tokens."""

    def __init__(self, assignment, token_representation):
        super().__init__()
        self.register_buffer("assignment", assignment)      # (num_entities, num_tokens)
        self.tokens = token_representation                   # shared relation-token embedding

    def forward(self, indices):
        token_ids = torch.index_select(self.assignment, 0, indices)
        return self.tokens(token_ids).mean(dim=-2)


class InductiveERModel(nn.Module):
    def __init__(self, num_relations, training_assignment, inference_assignment, embedding_dim=32):
        super().__init__()
        self.relation_representations = nn.ModuleList([nn.Embedding(2 * num_relations + 1, embedding_dim)])
        tokens = self.relation_representations[0]
        self.entity_representations = nn.ModuleList([NodePieceRepresentation(training_assignment, tokens)])
        # note: this is *not* a nn.ModuleDict; the modules have to be registered elsewhere
        validation_entity_representations = nn.ModuleList([NodePieceRepresentation(inference_assignment, tokens)])
        testing_entity_representations = validation_entity_representations
        self._mode_to_representations = {
            "training": self.entity_representations,
            "validation": validation_entity_representations,
            "testing": testing_entity_representations,
        }

    def _get_entity_representations_from_inductive_mode(self, *, mode):
        if mode in self._mode_to_representations:
            return self._mode_to_representations[mode]
        raise ValueError(f"{self.__class__.__name__} does not support mode={mode}")


class InductiveNodePiece(InductiveERModel):
    pass


# ILPC2022 small: 10184 training entities, 6653 inference entities, 48 relations, 12 tokens per entity
num_relations = 48
training_assignment = torch.randint(0, 2 * num_relations + 1, (10184, 12))
inference_assignment = torch.randint(0, 2 * num_relations + 1, (6653, 12))
inp = InductiveNodePiece(num_relations, training_assignment, inference_assignment)
inp.to("cuda:0")
training_heads = torch.randint(0, 10184, (512,))
inference_heads = torch.randint(0, 6653, (512,))
'''
CELL = '''
train_x = inp._get_entity_representations_from_inductive_mode(mode="training")[0](indices=training_heads.to("cuda:0"))
test_x = inp._get_entity_representations_from_inductive_mode(mode="testing")[0](indices=inference_heads.to("cuda:0"))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inp"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        self._mode_to_representations = {
            "training": self.entity_representations,
            "validation": validation_entity_representations,
            "testing": testing_entity_representations,
        }

    def _get_entity_representations_from_inductive_mode(self, *, mode):
        if mode in self._mode_to_representations:
            return self._mode_to_representations[mode]
''', '''        _mode_to_representations = {
            "training": self.entity_representations,
            "validation": validation_entity_representations,
            "testing": testing_entity_representations,
        }
        # note: "training" is an attribute of nn.Module -> need to rename to avoid name collision
        self._mode_to_representations = nn.ModuleDict({f"{k}_factory": v for k, v in _mode_to_representations.items()})

    def _get_entity_representations_from_inductive_mode(self, *, mode):
        key = f"{mode}_factory"
        if key in self._mode_to_representations:
            return self._mode_to_representations[key]
''')
CLEAN = False
